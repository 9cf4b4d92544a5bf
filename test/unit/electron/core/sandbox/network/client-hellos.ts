/**
 * Real TLS ClientHellos, as Node's own TLS client sends them: a tls.connect to a loopback
 * TCP server that keeps the first record and hangs up. Nothing else is sent anywhere.
 */
import net from 'node:net';
import tls from 'node:tls';

/** The first TLS record a client sends for `servername` (none: no SNI, as for an IP address). */
export async function capturedClientHello(servername?: string): Promise<Buffer> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const hello = new Promise<Buffer>((resolve) => {
      server.once('connection', (socket) => {
        let got = Buffer.alloc(0);
        socket.on('data', (chunk: Buffer) => {
          got = Buffer.concat([got, chunk]);
          // One whole record: its 5-byte header says how long it is.
          if (got.length >= 5 && got.length >= 5 + got.readUInt16BE(3)) {
            socket.destroy();
            resolve(got.subarray(0, 5 + got.readUInt16BE(3)));
          }
        });
      });
    });
    const client = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false });
    client.on('error', () => undefined);
    const bytes = await hello;
    client.destroy();
    return bytes;
  } finally {
    server.close();
  }
}

/** The same ClientHello with its handshake message cut into two TLS records after `at` bytes. */
export function splitIntoTwoRecords(record: Buffer, at: number): Buffer {
  const message = record.subarray(5);
  const header = (length: number) =>
    Buffer.from([22, record[1] as number, record[2] as number, length >> 8, length & 0xff]);
  return Buffer.concat([header(at), message.subarray(0, at), header(message.length - at), message.subarray(at)]);
}
