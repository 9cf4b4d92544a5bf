/**
 * The budget arithmetic: how large a request is likely to be, and what room it has. No
 * request may be larger than the window minus the room kept for the reply.
 *
 * The estimate starts from the provider's own count for the last request and adds what
 * changed since, at the tokens per byte that count showed (with a margin on growth).
 * Before the provider has counted anything, a cautious fixed ratio stands in.
 */
import { DEFAULT_TOKENS_PER_BYTE, ESTIMATE_MARGIN, OUTPUT_RESERVE_MAX_TOKENS } from '../../../shared/limits.js';
import type { Calibration } from './history.js';

export interface Room {
  window: number;
  /** Kept for the reply: also the cap sent with each request. */
  outputReserve: number;
  /** window - outputReserve: the most input a request may carry. */
  input: number;
}

/** The room a model has: its window less the reply's cap (the config's, else the model's, at most OUTPUT_RESERVE_MAX_TOKENS, never over a quarter of the window). */
export function roomFor(window: number, maxOutput: number | null, configured?: number): Room {
  const reserve = Math.max(
    1,
    Math.min(configured ?? maxOutput ?? OUTPUT_RESERVE_MAX_TOKENS, OUTPUT_RESERVE_MAX_TOKENS, Math.floor(window / 4)),
  );
  return { window, outputReserve: reserve, input: window - reserve };
}

export class Estimator {
  constructor(private readonly last: Calibration | null) {}

  /** Tokens per byte of the last counted request, or the cautious default. */
  get tokensPerByte(): number {
    return this.last ? this.last.tokens / this.last.bytes : DEFAULT_TOKENS_PER_BYTE;
  }

  get calibrated(): boolean {
    return this.last !== null;
  }

  /** A request of this many bytes: the last count, plus the growth since at the calibrated rate and a margin. */
  request(bytes: number): number {
    if (!this.last) return Math.ceil(bytes * DEFAULT_TOKENS_PER_BYTE * ESTIMATE_MARGIN);
    const delta = bytes - this.last.bytes;
    const growth = delta > 0 ? delta * this.tokensPerByte * ESTIMATE_MARGIN : delta * this.tokensPerByte;
    return Math.max(0, Math.ceil(this.last.tokens + growth));
  }

  /** One part's share, for the preview and for choosing what to mask. */
  part(bytes: number): number {
    return Math.ceil(bytes * this.tokensPerByte);
  }
}
