import { CheckpointError } from '../checkpoints/session-checkpoints.js';
import { ToolError } from '../tools/tool-def.js';
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

/** A tool's or the checkpoint room's refusal, said to the caller as the session's: the rest stays unexpected. */
export function asSessionError(err: unknown): never {
  if (err instanceof ToolError || err instanceof CheckpointError) throw new SessionError(err.message);
  throw err;
}
