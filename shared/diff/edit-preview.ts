/**
 * A write card's diff with the person's text in place of the proposal (SPEC §13): what
 * `card.preview` answers, built the same way by the core and, as the person types, by the
 * window itself, so the diff paints with the keystroke instead of a round trip later.
 */
import { editProblem, type EditPreview } from '../card-edits.js';
import { cardDiffText, type CardDiffText } from './card-diff.js';
import { QUICK_DIFF_BUDGET } from './line-diff.js';
import { unifiedDiff } from './unified-diff.js';
import { asWritten, utf8Length } from './utf8.js';

/** What the window needs besides the proposal to rebuild an open card's diff: its other side, as text. */
export interface DiffBase {
  /** The path as the diff's headers name it. */
  path: string;
  /** The file on disk when the card went up, or null when it does not exist. */
  before: string | null;
}

export interface EditedFacts {
  /** UTF-8 byte size of the person's text. */
  bytes: number;
  sameAsProposal: boolean;
  problem: string | null;
}

export function editPreviewOf(d: CardDiffText, edited: EditedFacts): EditPreview {
  return {
    diff: d.diff,
    diffTruncated: d.truncated,
    diffBytes: d.diffBytes,
    editedBytes: edited.bytes,
    sameAsProposal: edited.sameAsProposal,
    ...(d.note ? { diffNote: d.note } : {}),
    ...(edited.problem ? { problem: edited.problem } : {}),
  };
}

/**
 * The preview of `text`, if its exact diff fits QUICK_DIFF_BUDGET (about a millisecond);
 * null when it does not, and the core's diff worker should build it.
 */
export function quickEditPreview(base: DiffBase, proposal: string, typed: string): EditPreview | null {
  // What the core diffs is the bytes the text would be written as.
  const text = asWritten(typed);
  const unified = unifiedDiff({ path: base.path, before: base.before, after: text }, QUICK_DIFF_BUDGET);
  if (unified.simplified) return null;
  const bytes = utf8Length(text);
  const nul = text.indexOf('\0');
  return editPreviewOf(cardDiffText(unified), {
    bytes,
    sameAsProposal: text === proposal,
    problem: editProblem(bytes, nul === -1 ? -1 : utf8Length(text.slice(0, nul))),
  });
}
