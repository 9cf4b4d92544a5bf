/**
 * How long the browser waits before each reconnect attempt: doubling from `initialMs` up
 * to `maxMs`, with up to a fifth added at random so many tabs do not knock at once.
 */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 5000 };

export function reconnectDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base + base * 0.2 * random());
}
