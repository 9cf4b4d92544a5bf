/**
 * Which older tool results to mask, decided as a pure function of the entries' sizes.
 *
 * Nothing is masked until the request passes the trigger share of the room. Then the
 * oldest results are masked, entry by entry, until the estimate is back under the target
 * share. Moving in such blocks breaks the cached prefix once per block rather than at
 * every step; what a block leaves whole after its cut is written to the cache again, so
 * the target is low and one block cuts deep. The latest steps' results are kept whole,
 * even when that leaves the request above the target.
 */
import { KEEP_RECENT_STEPS, MASK_TARGET_SHARE, MASK_TRIGGER_SHARE } from '../../../shared/limits.js';

export interface MaskCandidate {
  kind: 'user' | 'step';
  lastSeq: number;
  /** Estimated tokens whole, and once masked. */
  tokens: number;
  maskedTokens: number;
}

export interface MaskPlan {
  throughSeq: number;
  /** Entries newly masked. */
  entries: number;
  tokensAfter: number;
}

/**
 * @param entries the entries after the summary, oldest first
 * @param maskedThrough what is masked already
 * @param total the request's estimated tokens now
 * @param room the most input a request may carry
 */
export function planMasking(
  entries: readonly MaskCandidate[],
  maskedThrough: number,
  total: number,
  room: number,
  shares = { trigger: MASK_TRIGGER_SHARE, target: MASK_TARGET_SHARE, keepSteps: KEEP_RECENT_STEPS },
): MaskPlan | null {
  if (total <= room * shares.trigger) return null;
  const open = maskable(entries, maskedThrough, shares.keepSteps);
  let tokens = total;
  let count = 0;
  let throughSeq = maskedThrough;
  for (const entry of open) {
    if (tokens <= room * shares.target) break;
    const saved = entry.tokens - entry.maskedTokens;
    if (saved <= 0) continue;
    tokens -= saved;
    count++;
    throughSeq = entry.lastSeq;
  }
  return count > 0 ? { throughSeq, entries: count, tokensAfter: tokens } : null;
}

/** Steps not masked yet, older than the latest `keepSteps` steps. */
function maskable(entries: readonly MaskCandidate[], maskedThrough: number, keepSteps: number): MaskCandidate[] {
  const steps = entries.filter((e) => e.kind === 'step');
  const keepFrom = steps.length - keepSteps;
  return steps.filter((e, i) => i < keepFrom && e.lastSeq > maskedThrough);
}
