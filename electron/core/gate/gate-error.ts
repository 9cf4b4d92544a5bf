/** A bad answer to a card (unknown card, answered twice, unknown word). Nothing changed. */
export class GateError extends Error {
  override readonly name = 'GateError';
}

/** The wait for an answer ended because the turn was cancelled. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(message = 'cancelled by the user') {
    super(message);
  }
}
