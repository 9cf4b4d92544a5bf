/**
 * The door through which the gate's MCP face sees the turn a driver is running. The MCP
 * face takes calls from an agent process at any time; a call belongs to the turn that is
 * live when it arrives, and is refused when none is.
 */

/** The turn an external agent's calls belong to, while it runs. */
export interface LiveTurn {
  turnId: string;
  /**
   * Aborts when the turn ends for any reason (Cancel, shutdown, the agent stopped): a call
   * still running is then closed, its card withdrawn and its result logged.
   */
  signal: AbortSignal;
}

/** Implemented by the driver: the live turn, or null between turns. */
export interface LiveTurnDoor {
  current(): LiveTurn | null;
}
