/**
 * A tunnel to port 443 of a listed domain carries TLS for that domain only: its first
 * bytes must be a ClientHello whose server name (SNI) is the host the tunnel was opened
 * to. Otherwise one listed name that shares an address with other sites (a CDN) would
 * reach them all: CONNECT allowed.example:443, then a ClientHello for another site
 * (domain fronting). A missing name is refused too: the server would pick the site.
 *
 * The proxy holds the command's first bytes until the ClientHello is whole, then passes
 * them on unchanged; it never reads further than that, and never ends the TLS itself.
 */
import type net from 'node:net';
import { readClientHello } from './client-hello.js';
import type { Carries } from './destination.js';
import { normalizeHost } from './domain-policy.js';
import { serverNameRefused, type Refusal } from './refusal.js';

/** A client that has not sent its whole ClientHello by then is dropped. */
const HELLO_TIMEOUT_MS = 10_000;

export type FirstBytes =
  /** The bytes read so far, to pass on first. */
  | { ok: true; bytes: Buffer }
  /** `problem` finishes "the tunnel to host:443 …"; null when the client went away or said nothing. */
  | { ok: false; problem: string | null };

/** Why a ClientHello read this far is not TLS for `host`; null when it is; a number: read on to that many bytes. */
export function serverNameProblem(bytes: Buffer, host: string): string | null | number {
  const read = readClientHello(bytes);
  switch (read.kind) {
    case 'more':
      return read.atLeast;
    case 'not-tls':
      return 'did not start with a TLS ClientHello';
    case 'bad':
      return `sent a TLS ClientHello the proxy cannot read (${read.why})`;
    case 'hello':
      if (read.serverName === null) return 'sent a TLS ClientHello that names no server (SNI)';
      if (normalizeHost(read.serverName) === normalizeHost(host)) return null;
      return `sent a TLS ClientHello for another site (its SNI is ${printable(read.serverName)})`;
  }
}

/**
 * Reads the client's first bytes (`early` already came with the request) until they are a
 * whole ClientHello for `host`, or show they are not. The socket is left paused, its data
 * listener removed, so that what follows is piped on without a byte lost.
 */
export function awaitClientHello(socket: net.Socket, early: Buffer, host: string): Promise<FirstBytes> {
  return new Promise((resolve) => {
    const chunks = [early];
    let length = early.length;
    let atLeast = 0;
    const finish = (result: FirstBytes) => {
      socket.pause();
      socket.off('data', onData);
      socket.off('close', onClose);
      clearTimeout(timer);
      resolve(result);
    };
    const judge = () => {
      if (length < atLeast) return;
      const bytes = Buffer.concat(chunks);
      const problem = serverNameProblem(bytes, host);
      if (typeof problem === 'number') atLeast = problem;
      else finish(problem === null ? { ok: true, bytes } : { ok: false, problem });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      judge();
    };
    const onClose = () => finish({ ok: false, problem: null });
    const timer = setTimeout(() => finish({ ok: false, problem: null }), HELLO_TIMEOUT_MS);
    socket.on('data', onData);
    socket.once('close', onClose);
    // Resumed first: if `early` settles it at once, finish pauses again before a byte can flow past.
    socket.resume();
    judge();
  });
}

/** A server name as the refusal line may show it: printable ASCII, not too long. */
function printable(name: string): string {
  return JSON.stringify(name.replace(/[^\x21-\x7e]/g, '?').slice(0, 253));
}

/**
 * The bytes to send first down a tunnel that `carries` this: `early` as is when anything
 * goes, else once a ClientHello for `host` has come. Null when the tunnel must close; a
 * ClientHello for the wrong site (or none) is also handed to `refuse`, for the model's line.
 */
export async function checkedFirstBytes(
  socket: net.Socket,
  early: Buffer,
  carries: Carries,
  destination: { host: string; port: number },
  refuse: (refusal: Refusal) => void,
): Promise<Buffer | null> {
  if (carries === 'anything') return early;
  const first = await awaitClientHello(socket, early, destination.host);
  if (first.ok) return first.bytes;
  if (first.problem) refuse(serverNameRefused(normalizeHost(destination.host), destination.port, first.problem));
  return null;
}
