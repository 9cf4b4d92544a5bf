/**
 * A model call's estimated cost from its reported usage and the model's prices (USD per
 * million tokens). Input tokens include the cached ones: those read from the cache are
 * billed at the cache-read price and those written at the cache-write price, when the
 * table has them; the rest at the input price.
 */
import type { ModelPrices } from '../../../shared/model-facts.js';

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
}

export function usageCost(u: Usage, prices: ModelPrices | null): number | null {
  if (!prices || (u.inputTokens === null && u.outputTokens === null)) return null;
  const read = u.cacheReadTokens ?? 0;
  const written = u.cacheWriteTokens ?? 0;
  const plain = Math.max(0, (u.inputTokens ?? 0) - read - written);
  const usd =
    plain * prices.input +
    read * (prices.cacheRead ?? prices.input) +
    written * (prices.cacheWrite ?? prices.input) +
    (u.outputTokens ?? 0) * prices.output;
  return usd / 1_000_000;
}
