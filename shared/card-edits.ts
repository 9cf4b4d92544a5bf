/**
 * Editing a proposal on the card (SPEC §13): what travels between the write card's
 * editor, the gate and the log. The person's text is the whole new file; the log keeps it
 * as a blob beside the proposal's, and the transcript diffs one against the other.
 */

import { WRITE_MAX_BYTES } from './limits.js';

/** The person's edited file as the log keeps it: a content-addressed blob, and its size. */
export interface CardEdits {
  /** sha256 hex of the blob in the session folder holding every edited byte. */
  blob: string;
  bytes: number;
}

/** What `card.preview` answers: the card's diff rebuilt with the person's text in place of the proposal. */
export interface EditPreview {
  /** Unified diff of the bytes on disk when the card went up against the person's text; maybe truncated. */
  diff: string;
  diffTruncated: boolean;
  diffBytes: number;
  /** Byte size of the person's text, as it would be written (UTF-8). */
  editedBytes: number;
  /** Whether the person's text is exactly the proposal. */
  sameAsProposal: boolean;
  /** Set when the diff could not be computed within bounds and a whole-file hunk is shown. */
  diffNote?: string;
  /** Why this text cannot be allowed as it is (over the size limit, a NUL character); absent when it can. */
  problem?: string;
}

/** What `card.edits` answers for an answer with edits: the model's proposal against what was written. */
export interface EditsDiff {
  path: string;
  diff: string;
  diffTruncated: boolean;
  diffBytes: number;
  proposalBytes: number;
  editedBytes: number;
  diffNote?: string;
}

/**
 * Why the person's version cannot be written, or null when it can: it is held to a
 * proposal's rules, the size limit counted in UTF-8 bytes and no NUL byte. `nulAt` is the
 * byte offset of the first NUL, or -1.
 */
export function editProblem(bytes: number, nulAt: number): string | null {
  if (bytes > WRITE_MAX_BYTES) {
    return `your version is ${bytes} bytes; files are written only up to ${WRITE_MAX_BYTES} bytes (256 KiB)`;
  }
  if (nulAt !== -1) return `your version contains a NUL character (at byte ${nulAt}); only text is written`;
  return null;
}
