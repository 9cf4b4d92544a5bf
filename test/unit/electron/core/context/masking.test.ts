import { describe, expect, it } from 'vitest';
import { planMasking, type MaskCandidate } from '../../../../../electron/core/context/masking.js';
import { MASK_TARGET_SHARE } from '../../../../../shared/limits.js';

/** A user message, then `n` steps of `tokens` each that shrink to 50 tokens once masked. */
function steps(n: number, tokens = 10_000): MaskCandidate[] {
  const list: MaskCandidate[] = [{ kind: 'user', lastSeq: 1, tokens: 100, maskedTokens: 100 }];
  for (let i = 0; i < n; i++) list.push({ kind: 'step', lastSeq: 10 + i * 3, tokens, maskedTokens: 50 });
  return list;
}

const total = (list: MaskCandidate[], head = 5_000) => head + list.reduce((n, e) => n + e.tokens, 0);

describe('masking older tool results', () => {
  it('masks nothing while the request is under the trigger share of the room', () => {
    const list = steps(10);
    expect(planMasking(list, 0, total(list), 200_000)).toBeNull();
  });

  it('past the trigger, masks the oldest steps until the estimate is under the target share', () => {
    const list = steps(30, 5_000); // 150,100 tokens + head, room 168,000: over 80%
    const room = 168_000;
    const plan = planMasking(list, 0, total(list), room)!;
    expect(plan.tokensAfter).toBeLessThanOrEqual(room * MASK_TARGET_SHARE);
    // One step less would not have been enough: masking moves in one block, no further.
    expect(plan.tokensAfter + 5_000 - 50).toBeGreaterThan(room * MASK_TARGET_SHARE);
    expect(plan.throughSeq).toBe(list[plan.entries]!.lastSeq);
  });

  it('keeps the latest two steps whole, however full the context', () => {
    const list = steps(4, 60_000);
    const plan = planMasking(list, 0, total(list), 168_000)!;
    expect(plan.throughSeq).toBe(list[2]!.lastSeq);
    expect(plan.entries).toBe(2);
  });

  it('starts after what is masked already, and returns null when nothing is left to mask', () => {
    const list = steps(4, 60_000);
    expect(planMasking(list, list[2]!.lastSeq, total(list), 168_000)).toBeNull();
  });

  it('never counts user messages: they are not masked', () => {
    const list: MaskCandidate[] = [
      { kind: 'user', lastSeq: 1, tokens: 150_000, maskedTokens: 150_000 },
      ...steps(2).slice(1),
    ];
    expect(planMasking(list, 0, total(list), 168_000)).toBeNull();
  });

  it('skips steps that masking would not shrink', () => {
    const list = steps(6, 40_000);
    list[1] = { ...list[1]!, maskedTokens: list[1]!.tokens };
    const plan = planMasking(list, 0, total(list), 168_000)!;
    expect(plan.entries).toBeGreaterThan(0);
    expect(plan.tokensAfter).toBeLessThan(total(list));
  });
});
