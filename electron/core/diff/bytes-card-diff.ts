/**
 * The diff a write card carries, from the bytes on either side (shared/diff/card-diff.ts
 * says how it is cut). Synchronous and bounded; CardDiffer runs it off the event loop.
 */
import { cardDiffOf, type CardDiff } from '../../../shared/diff/card-diff.js';
import type { UnifiedDiff } from '../../../shared/diff/unified-diff.js';
import { unifiedDiffOfBytes, type DiffSides } from './bytes-diff.js';

export function computeCardDiff(sides: DiffSides): CardDiff {
  return cardOf(unifiedDiffOfBytes(sides), sides);
}

export function cardOf(unified: UnifiedDiff, sides: DiffSides): CardDiff {
  return cardDiffOf(unified, { beforeBytes: sides.before?.length ?? null, proposalBytes: sides.after.length });
}
