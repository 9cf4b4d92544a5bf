/**
 * Run by own-address-namespace.test.ts inside a network namespace of its own, where this
 * "machine" has 93.184.215.14 on an interface: a service bound to 0.0.0.0 answers on it,
 * and the proxy, reading the namespace's interfaces, must refuse it. Prints one JSON line.
 */
import net from 'node:net';
import { NetworkProxy } from '../../../../../../electron/core/sandbox/network/network-proxy.js';
import { tableLookup } from './stand-in.js';

const OWN = '93.184.215.14';

function talk(connect: () => net.Socket, send: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const socket = connect();
    socket.on('data', (c: Buffer) => (got += c.toString()));
    socket.on('error', (e) => resolve(`error: ${e.message}`));
    socket.on('close', () => resolve(got));
    socket.write(send);
  });
}

const served: string[] = [];
const service = net.createServer((s) => {
  served.push(String(s.localAddress));
  s.end('the service on 0.0.0.0\n');
});
await new Promise<void>((resolve) => service.listen(0, '0.0.0.0', resolve));
const port = (service.address() as net.AddressInfo).port;

const direct = await talk(() => net.connect(port, OWN), 'hello\n');
const proxy = new NetworkProxy({ socketParent: process.argv[2], lookup: tableLookup({ 'own.example': [OWN] }) });
const door = await proxy.open(true);
const connect = (target: string) => `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\nhello\n`;
const viaName = await talk(() => net.connect(door.socket), connect(`own.example:${port}`));
const viaAddress = await talk(() => net.connect(door.socket), connect(`${OWN}:${port}`));
const viaNat64 = await talk(() => net.connect(door.socket), connect(`[64:ff9b::5db8:d70e]:${port}`));
await proxy.dispose();
service.close();
process.stdout.write(`${JSON.stringify({ direct, viaName, viaAddress, viaNat64, served })}\n`);
