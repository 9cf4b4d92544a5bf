/** A places request that cannot be done as asked (bad input, no place, not an orphan): nothing was changed. */
import type { ErrorKind } from '../error-kind.js';

export class PlaceError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'PlaceError';
}
