/**
 * What checkpoints record and show (SPEC §12): the files a step changed, what a snapshot
 * left out, and what an undo, redo or rewind restored and what it left alone. The log
 * holds these in `checkpoint`, `undo`, `redo` and `rewind` events; the contract's
 * session.changes answers with a ChangesView.
 */

/** One file a step (or a turn) changed, between two snapshots. */
export interface ChangedFile {
  /** Relative to the workspace root, with forward slashes. */
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** Size after the change; for a deleted file, its size before. */
  bytes: number;
}

/**
 * A path a snapshot left out, and why: the undo cannot bring it back. `special_file` is a
 * FIFO, socket or device (`kind` says which); `name_not_utf8` a file whose name is not
 * UTF-8, which the app cannot carry back to its bytes (its path holds each such byte as a
 * lone surrogate U+DC80..U+DCFF, shown as U+FFFD).
 */
export interface SkippedPath {
  path: string;
  why: 'too_large' | 'nested_repository' | 'ignored' | 'special_file' | 'name_not_utf8';
  /** A too-large file's size. */
  bytes?: number;
  kind?: 'fifo' | 'socket' | 'device';
}

/** What a snapshot left out: the first CHECKPOINT_SKIPPED_MAX paths, and how many more. */
export interface Skipped {
  paths: SkippedPath[];
  more: number;
}

/**
 * A file an undo, redo or rewind left alone because it changed since the point it would
 * be taken back from: by the person, or by a later turn. It is restored only when the
 * person ticks it.
 */
export interface KeptFile {
  path: string;
  why: 'changed_since' | 'changed_by_later_turn' | 'skipped_by_snapshot';
}

/** What an undo, redo or rewind did to the workspace: the snapshots around it and the files. */
export interface Restoration {
  /** The workspace just before (snapshotted, so a redo can bring it back) and just after. */
  before: string;
  after: string;
  restored: ChangedFile[];
  kept: KeptFile[];
}

/** One file of a ChangesView: its change, its diff, and whether an undo would leave it alone. */
export interface FileChangeView extends ChangedFile {
  /**
   * git's unified diff of the file, cut like a card's; null for a binary file, or past the
   * first CHANGES_DIFF_MAX_FILES files of a view (then diffTruncated is true).
   */
  diff: string | null;
  diffTruncated: boolean;
  /** Set when the file differs now from what the turn (or call) left: an undo keeps it unless ticked. */
  changedSince?: KeptFile['why'];
}

export type UndoAvailability = { ok: true } | { ok: false; why: string };

/** session.changes: every file a turn or a call changed, as diffs, and whether undo can take them back. */
export interface ChangesView {
  turnId?: string;
  toolCallId?: string;
  files: FileChangeView[];
  undo: UndoAvailability;
  /** An undo of this turn is logged and not yet redone: its event's seq. */
  undoneBy?: number;
}

/** What an undo, redo or rewind answers: its event's seq and what it did. */
export interface RestoreOutcome {
  seq: number;
  restored: ChangedFile[];
  kept: KeptFile[];
}
