import { describe, expect, it } from 'vitest';
import { usageCost } from '../../../../../electron/core/context/usage-cost.js';

const prices = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

describe('the estimated cost of a model call', () => {
  it('bills cached input at the cache prices and the rest at the input price', () => {
    const cost = usageCost(
      { inputTokens: 100_000, outputTokens: 2_000, cacheReadTokens: 90_000, cacheWriteTokens: 8_000 },
      prices,
    );
    expect(cost).toBeCloseTo((2_000 * 3 + 90_000 * 0.3 + 8_000 * 3.75 + 2_000 * 15) / 1e6, 12);
  });

  it('bills cache tokens at the input price when the table has no cache prices', () => {
    const cost = usageCost(
      { inputTokens: 10_000, outputTokens: 0, cacheReadTokens: 10_000, cacheWriteTokens: null },
      { input: 2, output: 8, cacheRead: null, cacheWrite: null },
    );
    expect(cost).toBeCloseTo((10_000 * 2) / 1e6, 12);
  });

  it('is unknown without prices or without any count', () => {
    expect(usageCost({ inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, null)).toBeNull();
    expect(
      usageCost({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null }, prices),
    ).toBeNull();
  });
});
