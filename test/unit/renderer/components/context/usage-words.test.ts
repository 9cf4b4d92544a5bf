import { describe, expect, it } from 'vitest';
import { emptyUsage, type UsageTotals } from '../../../../../shared/reducer';
import {
  compactTokens,
  costWords,
  meterWords,
  turnUsageWords,
} from '../../../../../renderer/src/components/context/usage-words';

const totals = (over: Partial<UsageTotals>): UsageTotals => ({ ...emptyUsage(), ...over });

describe('usage in words', () => {
  it('shortens token counts the way the window shows them', () => {
    expect([950, 4_100, 9_000, 84_321, 200_000, 999_600, 1_250_000, 12_400_000].map(compactTokens)).toEqual([
      '950',
      '4.1k',
      '9k',
      '84k',
      '200k',
      '1M',
      '1.3M',
      '12M',
    ]);
  });

  it('says a cost, and says when calls had no price', () => {
    expect(costWords(totals({ calls: 3, cost: 1.234 }))).toBe('$1.23');
    expect(costWords(totals({ calls: 3, cost: 0.004 }))).toBe('<$0.01');
    expect(costWords(totals({ calls: 3, unpriced: 3 }))).toBe('cost unknown');
    expect(costWords(totals({ calls: 3, cost: 0.5, unpriced: 1 }))).toBe('$0.50 + 1 call without a price');
  });

  it('a turn: calls, tokens in with the cached share, out, cost', () => {
    const t = totals({ calls: 12, inputTokens: 340_000, cacheReadTokens: 312_800, outputTokens: 4_100, cost: 0.42 });
    expect(turnUsageWords(t)).toBe('12 model calls · 340k tokens in (92% cached) · 4.1k out · $0.42');
    expect(turnUsageWords(totals({ calls: 1, inputTokens: 0, cost: 0 }))).toBe(
      '1 model call · 0 tokens in · 0 out · $0.00',
    );
  });

  it('the meter: a dash before any call, then how full and what it cost', () => {
    const none = { session: emptyUsage(), turns: {}, context: null };
    expect(meterWords(none)).toBe('—');
    const some = {
      session: totals({ calls: 2, cost: 1.23 }),
      turns: {},
      context: { tokens: 124_000, window: 200_000 },
    };
    expect(meterWords(some)).toBe('62% of 200k · $1.23');
    expect(meterWords({ ...some, context: null })).toBe('— · $1.23');
  });
});
