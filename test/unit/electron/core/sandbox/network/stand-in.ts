/**
 * What the network tests talk to instead of the internet: a loopback HTTP server standing
 * in for registry.npmjs.org (the proxy's test hook sends that name here), a loopback TCP
 * server that records what a tunnel passed on, and a resolver that answers from a table,
 * so no test makes a DNS query.
 */
import http from 'node:http';
import https from 'node:https';
import { createServer as netServer, type AddressInfo, type Socket } from 'node:net';
import type { Lookup } from '../../../../../../electron/core/sandbox/network/destination.js';

export interface StandIn {
  port: number;
  /** Every request seen: its path and Host header. */
  requests: { url: string; host: string }[];
  /** Responses to /hold, kept open until the client goes. */
  holding: Set<http.ServerResponse>;
  close(): Promise<void>;
}

/**
 * Answers "stand-in: <method> <url> host=<host> x-kept=<...> proxy-authorization=<...>";
 * /hold writes a first chunk and never ends. With `tls`, it speaks HTTPS.
 */
export async function startStandIn(tls?: { key: string; cert: string }): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const holding = new Set<http.ServerResponse>();
  const sockets = new Set<Socket>();
  const handler: http.RequestListener = (req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    if (req.url === '/hold') {
      holding.add(res);
      res.on('close', () => holding.delete(res));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
    res.end(
      `stand-in: ${req.method} ${req.url} host=${req.headers.host} x-kept=${req.headers['x-kept']} proxy-authorization=${req.headers['proxy-authorization']}\n`,
    );
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    requests,
    holding,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A resolver from a table: a name not in it does not resolve. */
export function tableLookup(table: Record<string, string[]>): Lookup {
  return async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
}

export interface Recorder {
  port: number;
  /** The bytes each connection sent, in the order the connections came. */
  received: Buffer[];
  close(): Promise<void>;
}

/** A loopback TCP server that keeps every byte it is sent and answers nothing: what a tunnel passed on. */
export async function startRecorder(): Promise<Recorder> {
  const received: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = netServer((socket) => {
    sockets.add(socket);
    const index = received.push(Buffer.alloc(0)) - 1;
    socket.on('data', (chunk: Buffer) => (received[index] = Buffer.concat([received[index] as Buffer, chunk])));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
