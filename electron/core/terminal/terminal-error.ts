import type { ErrorKind } from '../error-kind.js';

/** A terminal request that cannot be done (unknown id, missing workspace); its message is for the user. */
export class TerminalError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'TerminalError';
}
