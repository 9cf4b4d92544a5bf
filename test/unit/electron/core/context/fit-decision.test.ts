import { describe, expect, it } from 'vitest';
import { decideFit } from '../../../../../electron/core/context/fit-decision.js';
import type { MaskCandidate } from '../../../../../electron/core/context/masking.js';

/** Steps of `tokens` each that mask down to 100 tokens, oldest first. */
function steps(count: number, tokens: number): MaskCandidate[] {
  return Array.from({ length: count }, (_, i) => ({ kind: 'step', lastSeq: i + 1, tokens, maskedTokens: 100 }));
}

describe('the decision before a step', () => {
  it('sends the request as it is while it is under the masking trigger', () => {
    expect(decideFit({ total: 79_000, room: 100_000, maskedThrough: 0, entries: steps(10, 7_900) })).toEqual({
      next: 'send',
    });
  });

  it('masks a block of older results when that brings the request under the summary trigger', () => {
    const d = decideFit({ total: 85_000, room: 100_000, maskedThrough: 0, entries: steps(10, 8_500) });
    expect(d.next).toBe('mask');
    expect(d.next === 'mask' && d.plan.tokensAfter).toBeLessThanOrEqual(90_000);
  });

  it('summarises when masking cannot bring it under the summary trigger, and says what masking could still do', () => {
    const entries: MaskCandidate[] = [
      { kind: 'user', lastSeq: 1, tokens: 80_000, maskedTokens: 80_000 },
      ...steps(3, 5_000).map((s) => ({ ...s, lastSeq: s.lastSeq + 1 })),
    ];
    const d = decideFit({ total: 95_000, room: 100_000, maskedThrough: 0, entries });
    expect(d.next).toBe('summarise');
    expect(d.next === 'summarise' && d.plan?.throughSeq).toBe(2);
  });

  it('summarises with nothing to mask when every older result is masked already', () => {
    expect(decideFit({ total: 95_000, room: 100_000, maskedThrough: 10, entries: steps(10, 9_500) })).toEqual({
      next: 'summarise',
      plan: null,
    });
  });
});
