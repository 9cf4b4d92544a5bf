/**
 * The history cannot be made to fit the model's window (or there is nothing to
 * summarise). The message is written for the person: the runner ends the turn with it,
 * and Compact now returns it, while the session stays usable.
 */
import type { ErrorKind } from '../error-kind.js';

export class ContextFullError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'ContextFullError';
}
