import { DIFF_TRUNCATED_LINES, DIFF_WHOLE_MAX_BYTES } from '../limits.js';
/**
 * The diff a write card carries (SPEC §3, Diffs): kept whole up to 64 KiB of diff text,
 * cut to its first 400 lines above that, with the byte sizes the card states.
 */
import type { UnifiedDiff } from './unified-diff.js';
import { utf8Length } from './utf8.js';

export interface CardDiff {
  /** The unified diff, whole or cut to its first DIFF_TRUNCATED_LINES lines. */
  diff: string;
  truncated: boolean;
  /** UTF-8 byte size of the whole diff, truncated or not. */
  diffBytes: number;
  proposalBytes: number;
  beforeBytes: number | null;
  /** Why the diff is empty or not the plain minimal one, in words for the card. */
  note?: string;
}

/** The diff text a card shows, cut to fit, with its notes: a card's diff without the sizes of its sides. */
export type CardDiffText = Pick<CardDiff, 'diff' | 'truncated' | 'diffBytes' | 'note'>;

/** The card's diff from a whole unified diff and the byte sizes of its two sides. */
export function cardDiffOf(
  unified: UnifiedDiff,
  sizes: { beforeBytes: number | null; proposalBytes: number },
): CardDiff {
  return { ...cardDiffText(unified), proposalBytes: sizes.proposalBytes, beforeBytes: sizes.beforeBytes };
}

export function cardDiffText({ lines, notes }: UnifiedDiff): CardDiffText {
  return { ...fitToCard(lines), ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

function fitToCard(lines: string[]): Pick<CardDiff, 'diff' | 'truncated' | 'diffBytes'> {
  const whole = lines.join('');
  const diffBytes = utf8Length(whole);
  if (diffBytes <= DIFF_WHOLE_MAX_BYTES) return { diff: whole, truncated: false, diffBytes };
  return { diff: lines.slice(0, DIFF_TRUNCATED_LINES).join(''), truncated: true, diffBytes };
}
