/**
 * Where the web host listens. Loopback by default; anything else only when the user named
 * it with --host, and then with a plain warning, because the URL is all it takes to run
 * commands on this machine.
 */
import { isIP } from 'node:net';

export const DEFAULT_HOST = '127.0.0.1';

export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

export class BindRefusedError extends Error {
  override readonly name = 'BindRefusedError';
}

/** Refuses a non-loopback address unless it was named explicitly; returns the warning to print, if any. */
export function checkBind(host: string, namedExplicitly: boolean): string | null {
  if (isLoopback(host)) return null;
  if (!namedExplicitly) {
    throw new BindRefusedError(
      `refusing to listen on ${host}: only loopback addresses are allowed unless you pass --host ${host} yourself`,
    );
  }
  return (
    `WARNING: listening on ${host}, not just this machine. Anyone on that network who gets ` +
    `the URL below can read your sessions and run commands on this machine as you.`
  );
}
