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

/**
 * Why a single call's wait was cut short when it was not the turn's Cancel (an agent
 * cancelling its own call): aborting a call's signal with one puts its words on the
 * card's withdrawal instead of "the turn was cancelled".
 */
export class CardWithdrawal extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'CardWithdrawal';
}
