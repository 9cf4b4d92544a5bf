/**
 * The HTTP proxy of one door: CONNECT tunnels (https, and anything else a client tunnels
 * to a port the card names) and absolute-form plain http requests, each checked by the
 * door's gate before a byte leaves, a tunnel's first bytes too (server-name-check.ts). A
 * refusal is a 403 whose reason phrase and body carry the sandbox's line, so clients that
 * show only the status line (pip, git through libcurl with -v) still say why.
 */
import http from 'node:http';
import type net from 'node:net';
import type { Route } from './destination.js';
import type { DestinationGate } from './destination-gate.js';
import type { Refusal } from './refusal.js';
import { checkedFirstBytes } from './server-name-check.js';
import { connectTo, dial, splice } from './tunnel.js';

/** Headers that belong to one hop (RFC 9110 §7.6.1) and are not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

export function createHttpProxy(gate: DestinationGate): http.Server {
  // No request deadline: a long upload is the command's business, and the door closes with it.
  const server = http.createServer({ requestTimeout: 0 });
  server.on('connection', (socket: net.Socket) => gate.sockets.add(socket));
  // These run in the app's process: whatever goes wrong with one connection ends that
  // connection, never the app (an unhandled rejection would).
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnel(gate, req.url ?? '', socket, head).catch(() => socket.destroy());
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    forward(gate, req, res).catch(() => res.destroy());
  });
  // Not HTTP (or not parseable): say so, as a proxy should, rather than hang up without a word.
  server.on('clientError', (_err, socket: net.Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}

/** CONNECT host:port: a byte tunnel once the gate says yes. */
async function tunnel(gate: DestinationGate, target: string, socket: net.Socket, head: Buffer): Promise<void> {
  socket.on('error', () => socket.destroy());
  const parsed = parseAuthority(target);
  if (!parsed) return rawAnswer(socket, 400, 'Bad Request', `CONNECT needs host:port, got ${printable(target)}`);
  const decision = await gate.decide(parsed.host, parsed.port, 'tunnel');
  if (socket.destroyed) return;
  if (decision.kind === 'refused') return rawAnswer(socket, 403, forbidden(decision.refusal), decision.refusal.line);
  if (decision.kind === 'unreachable') return rawAnswer(socket, 502, 'Bad Gateway', decision.message);
  let upstream: net.Socket;
  try {
    upstream = await dial(decision.route, gate.sockets);
  } catch (err) {
    return rawAnswer(socket, 502, 'Bad Gateway', `could not connect to ${target}: ${(err as Error).message}`);
  }
  if (socket.destroyed) return void upstream.destroy();
  socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  // Bytes the client sent right behind the CONNECT (a TLS ClientHello) belong to the destination, once checked.
  const first = await checkedFirstBytes(socket, head, decision.carries, parsed, (r) => gate.refuse(r));
  if (first === null || socket.destroyed) return void [socket, upstream].forEach((s) => s.destroy());
  if (first.length > 0) upstream.write(first);
  splice(socket, upstream);
}

/** An absolute-form request (GET http://host/path): passed on to the address the gate chose. */
async function forward(gate: DestinationGate, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = absoluteHttpUrl(req.url ?? '');
  if (!url) {
    return void res
      .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      .end('this is a proxy: send http://host/path requests, or CONNECT host:port for anything else\n');
  }
  const port = url.port === '' ? 80 : Number(url.port);
  const decision = await gate.decide(url.hostname, port, 'forward');
  if (res.destroyed) return;
  if (decision.kind === 'refused') {
    return void res
      .writeHead(403, forbidden(decision.refusal), { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
      .end(`${decision.refusal.line}\n`);
  }
  if (decision.kind === 'unreachable') {
    return void res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`${decision.message}\n`);
  }
  pass(gate, req, res, url, decision.route);
}

function pass(
  gate: DestinationGate,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  route: Route,
): void {
  const upstream = http.request({
    // The connection is to the address the gate checked, never to the name (tunnel.ts); with
    // no agent (Node uses none when given createConnection), it is the request's own, tracked
    // by the door and never pooled past it.
    createConnection: () => connectTo(route),
    method: req.method,
    path: `${url.pathname}${url.search}`,
    // The Host is the URL's, whatever the client's header said: the request cannot be fronted to another site.
    headers: { ...oneHop(req.headers), host: url.host },
  });
  upstream.on('socket', (socket) => gate.sockets.add(socket));
  upstream.on('response', (answer) => {
    try {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, oneHop(answer.headers));
    } catch {
      // A status line or header Node will not write again (odd characters): the answer cannot be passed on.
      upstream.destroy();
      return void res.destroy();
    }
    answer.pipe(res);
  });
  upstream.on('error', (err) => {
    if (res.headersSent) return void res.destroy();
    res
      .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`could not reach ${url.host}: ${err.message}\n`);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

function oneHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name)) out[name] = value;
  }
  return out;
}

/** host:port or [v6]:port, as CONNECT carries them. */
export function parseAuthority(target: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/@]+)):(\d{1,5})$/.exec(target);
  if (!match) return null;
  return { host: (match[1] ?? match[2]) as string, port: Number(match[3]) };
}

function absoluteHttpUrl(target: string): URL | null {
  if (!/^http:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return url.hostname === '' || url.username !== '' || url.password !== '' ? null : url;
  } catch {
    return null;
  }
}

function forbidden(refusal: Refusal): string {
  return printable(`Forbidden (${refusal.line})`);
}

/** A status line or reason phrase must not carry control characters (nor, in practice, non-ASCII). */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 400);
}

function rawAnswer(socket: net.Socket, status: number, phrase: string, body: string): void {
  const text = `${body}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${printable(phrase)}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
