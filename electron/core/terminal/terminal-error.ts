/** A terminal request that cannot be done (unknown id, missing workspace); its message is for the user. */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
}
