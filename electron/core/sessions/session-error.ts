/** A request a session cannot take right now (an open card, no model, unknown id). Nothing changed. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
}
