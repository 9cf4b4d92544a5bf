/**
 * The line diff a card shows: exact (minimal, as git's) when it fits the work budget,
 * otherwise the region between the common head and tail shown as one replacement.
 */
import type { LineTable } from './line-table.js';
import { myersDiff, type ChangeFlags } from './myers-diff.js';

/**
 * Work units (diagonals visited plus lines compared) the exact diff may spend. Measured
 * at 5–10 ns a unit, so a scrambled pair gives up after 100–200 ms, well under 1 s; an
 * ordinary edit of a 256 KiB file spends well under a million.
 */
export const EXACT_DIFF_BUDGET = 20_000_000;

/**
 * The work a diff may spend where it blocks: the core's event loop, or the window while the
 * person types (about a millisecond). A pair that needs more goes to the core's diff worker.
 */
export const QUICK_DIFF_BUDGET = 200_000;

export interface LineDiff {
  flags: ChangeFlags;
  /** True when the budget ran out and the replacement was shown instead. */
  simplified: boolean;
}

export function lineDiff(table: LineTable, budget = EXACT_DIFF_BUDGET): LineDiff {
  const exact = myersDiff(table.oldIds, table.newIds, budget);
  if (exact) return { flags: exact, simplified: false };
  return { flags: replacement(table.oldIds, table.newIds), simplified: true };
}

/** Every line between the common head and the common tail marked changed. */
function replacement(oldIds: Int32Array, newIds: Int32Array): ChangeFlags {
  let head = 0;
  while (head < oldIds.length && head < newIds.length && oldIds[head] === newIds[head]) head++;
  let tail = 0;
  while (
    tail < oldIds.length - head &&
    tail < newIds.length - head &&
    oldIds[oldIds.length - 1 - tail] === newIds[newIds.length - 1 - tail]
  ) {
    tail++;
  }
  const oldChanged = new Uint8Array(oldIds.length).fill(1, head, oldIds.length - tail);
  const newChanged = new Uint8Array(newIds.length).fill(1, head, newIds.length - tail);
  return { oldChanged, newChanged };
}
