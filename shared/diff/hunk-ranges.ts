/**
 * Groups changed lines into the hunks of a unified diff: each run of changes with
 * `context` unchanged lines around it, and runs closer than twice that merged into one
 * hunk, as git and GNU diff do.
 */
import type { ChangeFlags } from './myers-diff.js';

/** Zero-based, half-open line ranges of one hunk on each side. */
export interface HunkRange {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

interface ChangeBlock {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export function hunkRanges(flags: ChangeFlags, context: number): HunkRange[] {
  const hunks: HunkRange[] = [];
  const oldCount = flags.oldChanged.length;
  let previousEnd = -Infinity;
  for (const block of changeBlocks(flags)) {
    const last = hunks.at(-1);
    const gap = block.oldStart - previousEnd;
    previousEnd = block.oldEnd;
    if (last && gap <= 2 * context) {
      extendTo(last, block, context, oldCount);
      continue;
    }
    const lead = Math.min(context, block.oldStart);
    const hunk = { oldStart: block.oldStart - lead, oldEnd: 0, newStart: block.newStart - lead, newEnd: 0 };
    extendTo(hunk, block, context, oldCount);
    hunks.push(hunk);
  }
  return hunks;
}

/** Unchanged lines pair up one to one, so trailing context is the same length on both sides. */
function extendTo(hunk: HunkRange, block: ChangeBlock, context: number, oldCount: number): void {
  const trail = Math.min(context, oldCount - block.oldEnd);
  hunk.oldEnd = block.oldEnd + trail;
  hunk.newEnd = block.newEnd + trail;
}

/** Each maximal run of changed lines between two unchanged pairs. */
function* changeBlocks({ oldChanged, newChanged }: ChangeFlags): Generator<ChangeBlock> {
  const n = oldChanged.length;
  const m = newChanged.length;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if ((i < n && oldChanged[i]) || (j < m && newChanged[j])) {
      const oldStart = i;
      const newStart = j;
      while (i < n && oldChanged[i]) i++;
      while (j < m && newChanged[j]) j++;
      yield { oldStart, oldEnd: i, newStart, newEnd: j };
    } else {
      i++;
      j++;
    }
  }
}
