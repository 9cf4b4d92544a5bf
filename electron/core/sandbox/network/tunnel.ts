/**
 * Byte tunnels between a command's connection and the destination, and the set of open
 * sockets a door keeps so that closing the door ends them all at once. Both halves are
 * half-open capable: a client that sends its request and then shuts down its write side
 * (common with simple TCP clients) still gets the whole answer.
 */
import net from 'node:net';
import type { Route } from './destination.js';

/** How long dialling a destination may take before the command is told it failed. */
const DIAL_TIMEOUT_MS = 30_000;

/** The open sockets of one door. */
export class SocketSet {
  private readonly sockets = new Set<net.Socket>();
  private closed = false;

  /** Tracks a socket until it closes; a socket arriving after the door closed is destroyed at once. */
  add(socket: net.Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  get size(): number {
    return this.sockets.size;
  }

  destroyAll(): void {
    this.closed = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}

/**
 * The one place the proxy opens a connection out. It takes an address, never a name:
 * given a name, net.connect would look it up again, and a second answer (127.0.0.1) could
 * differ from the one destination.ts checked (DNS rebinding).
 */
export function connectTo(route: Route): net.Socket {
  if (net.isIP(route.host) === 0) throw new Error(`the proxy dials addresses only, not ${route.host}`);
  return net.connect({ host: route.host, port: route.port, allowHalfOpen: true });
}

/** Dials `route`; resolves once connected, rejects with the reason it could not be. */
export function dial(route: Route, sockets: SocketSet): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const upstream = connectTo(route);
    sockets.add(upstream);
    const fail = (err: Error) => {
      upstream.destroy();
      reject(err);
    };
    upstream.setTimeout(DIAL_TIMEOUT_MS, () => fail(new Error(`timed out connecting to ${route.host}:${route.port}`)));
    upstream.once('error', fail);
    // Destroyed before it connected (its door closed): settle, or the caller waits forever.
    upstream.once('close', () => reject(new Error(`the connection to ${route.host}:${route.port} was closed`)));
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      upstream.off('error', fail);
      resolve(upstream);
    });
  });
}

/**
 * Pipes the two sockets into each other. An end on one side ends the other's write side;
 * an error or a reset destroys both; each closes once both directions are done.
 */
export function splice(a: net.Socket, b: net.Socket): void {
  const both = [a, b] as const;
  for (const [from, to] of [both, [b, a] as const]) {
    from.pipe(to);
    from.on('error', () => to.destroy());
    // Closed before its data ended (destroyed, reset): nothing more can flow either way.
    // After a clean end the pipe has already ended the other side, which may still be flushing.
    from.once('close', () => {
      if (!from.readableEnded) to.destroy();
    });
  }
}
