import type { ErrorKind } from '../error-kind.js';

/** A request a session cannot take right now (an open card, no model, unknown id). Nothing changed. */
export class SessionError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'SessionError';
}

/** A reason, then what follows from it: "why; more" or, after a whole sentence, "Why. More." */
export function reasonThen(why: string, more: string): string {
  return why.endsWith('.') ? `${why} ${more[0]!.toUpperCase()}${more.slice(1)}.` : `${why}; ${more}`;
}
