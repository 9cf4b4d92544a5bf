/**
 * Session ids: the folder name of a session. New ids sort by creation time (a compact UTC
 * timestamp, then random hex against collisions). An id from outside (the renderer, a
 * URL) is checked before it is joined to a path, so "../x" never leaves the data folder.
 */
import { randomBytes } from 'node:crypto';
import type { ErrorKind } from '../error-kind.js';

/** Letters, digits, '-' and '_', not starting with '-' or '_': no dots, no separators. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export class InvalidSessionIdError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'InvalidSessionIdError';
  constructor(readonly id: string) {
    super(`not a session id: ${JSON.stringify(id)}`);
  }
}

/** e.g. "20250314T101502123Z-3f9a1c2b7d". */
export function newSessionId(now: Date, random: string = randomBytes(5).toString('hex')): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${random}`;
}

export function isSessionId(id: string): boolean {
  return SAFE_ID.test(id);
}

export function assertSessionId(id: string): void {
  if (!isSessionId(id)) throw new InvalidSessionIdError(id);
}
