import type { ErrorKind } from '../error-kind.js';

/** A bad answer to a card (unknown card, answered twice, unknown word). Nothing changed. */
export class GateError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'GateError';
}

/** The wait for an answer ended because the turn was cancelled. */
export class CancelledError extends Error {
  /** The person stopped the turn: said in words, never a fault. */
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'CancelledError';
  constructor(message = 'cancelled by the user') {
    super(message);
  }
}
