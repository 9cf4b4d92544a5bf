/**
 * The SOCKS5 proxy of one door: no authentication, CONNECT only, to a domain (socks5h, so
 * the name reaches the gate rather than an address the command looked up itself, which it
 * cannot anyway: it has no DNS) or to an IP address. A refused destination gets reply 2,
 * "connection not allowed by ruleset"; the door keeps the sandbox's line for the summary.
 */
import net from 'node:net';
import type { DestinationGate } from './destination-gate.js';
import {
  NO_ACCEPTABLE_METHOD,
  NO_AUTH,
  REPLY,
  SOCKS_VERSION,
  parseGreeting,
  parseRequest,
  reply,
  type SocksRequest,
} from './socks5-parse.js';
import { checkedFirstBytes } from './server-name-check.js';
import { dial, splice } from './tunnel.js';

/** A client that has not finished its handshake by then is dropped. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** A greeting and a request fit in 2 + 255 + 4 + 1 + 255 + 2 bytes; more is not SOCKS. */
const MAX_HANDSHAKE_BYTES = 1024;

export function createSocksProxy(gate: DestinationGate): net.Server {
  return net.createServer({ allowHalfOpen: true }, (socket) => handshake(gate, socket));
}

function handshake(gate: DestinationGate, socket: net.Socket): void {
  gate.sockets.add(socket);
  socket.on('error', () => socket.destroy());
  socket.setTimeout(HANDSHAKE_TIMEOUT_MS, () => socket.destroy());
  let pending = Buffer.alloc(0);
  let stage: 'greeting' | 'request' | 'connecting' = 'greeting';
  const refuse = (code: number | null) => (code === null ? socket.destroy() : socket.end(reply(code)));
  const onData = (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    if (pending.length > MAX_HANDSHAKE_BYTES) return refuse(REPLY.generalFailure);
    if (stage === 'greeting') {
      const greeting = parseGreeting(pending);
      if (greeting.kind === 'more') return;
      if (greeting.kind === 'bad') return refuse(greeting.reply);
      if (!greeting.value.methods.includes(NO_AUTH))
        return void socket.end(Buffer.from([SOCKS_VERSION, NO_ACCEPTABLE_METHOD]));
      socket.write(Buffer.from([SOCKS_VERSION, NO_AUTH]));
      pending = pending.subarray(greeting.consumed);
      stage = 'request';
    }
    const request = parseRequest(pending);
    if (request.kind === 'more') return;
    if (request.kind === 'bad') return refuse(request.reply);
    stage = 'connecting';
    // What follows the request is the command's first bytes for the destination: held until the tunnel is up.
    socket.off('data', onData);
    socket.pause();
    socket.setTimeout(0);
    // In the app's process: a failure ends this connection, never the app.
    connect(gate, socket, request.value, pending.subarray(request.consumed)).catch(() => socket.destroy());
  };
  socket.on('data', onData);
  socket.on('end', () => {
    if (stage !== 'connecting') socket.destroy();
  });
}

async function connect(gate: DestinationGate, socket: net.Socket, request: SocksRequest, early: Buffer): Promise<void> {
  const decision = await gate.decide(request.host, request.port, 'tunnel');
  if (socket.destroyed) return;
  if (decision.kind === 'refused') return void socket.end(reply(REPLY.notAllowedByRuleset));
  if (decision.kind === 'unreachable') return void socket.end(reply(REPLY.hostUnreachable));
  let upstream: net.Socket;
  try {
    upstream = await dial(decision.route, gate.sockets);
  } catch (err) {
    return void socket.end(reply(replyFor(err as NodeJS.ErrnoException)));
  }
  if (socket.destroyed) return void upstream.destroy();
  socket.write(reply(REPLY.succeeded));
  const first = await checkedFirstBytes(socket, early, decision.carries, request, (r) => gate.refuse(r));
  if (first === null || socket.destroyed) return void [socket, upstream].forEach((s) => s.destroy());
  if (first.length > 0) upstream.write(first);
  splice(socket, upstream);
}

function replyFor(err: NodeJS.ErrnoException): number {
  switch (err.code) {
    case 'ECONNREFUSED':
      return REPLY.connectionRefused;
    case 'ENETUNREACH':
      return REPLY.networkUnreachable;
    case 'EHOSTUNREACH':
      return REPLY.hostUnreachable;
    default:
      return /timed out/.test(err.message) ? REPLY.ttlExpired : REPLY.generalFailure;
  }
}
