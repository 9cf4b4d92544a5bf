/**
 * Sessions in a place of their own (SPEC §15), as both sides see them: the place a session
 * works in, its whole change reviewed against its base, and what applying it did. Pure data:
 * the core's places room builds these; the log holds them in `place`, `place_apply` and
 * `place_applied` events; the reducer and the Changes view read them.
 */

/** A git worktree on a branch of its own, or a plain copy of a folder that is not a repository. */
export type PlaceKind = 'worktree' | 'copy';

/** What became of a place: still there, or removed (after the Discard card, or from Settings). */
export type PlaceState = 'active' | 'discarded';

export interface SessionPlace {
  kind: PlaceKind;
  /** The person's folder it was made from: where Apply writes. Never written while the session works. */
  origin: string;
  /** The place's own folder in the data folder: the session's workspace. */
  path: string;
  /** A worktree's branch, `gatehouse/<session name>`; absent for a copy. */
  branch?: string;
  /** A worktree's base commit (full hash); absent for a copy (its base is the copy's first snapshot). */
  baseCommit?: string;
  /**
   * The checkpoint snapshot taken of the place right after it was made: what the review
   * compares against (the same for a worktree and a copy).
   */
  baseSnapshot?: string;
  state: PlaceState;
  /**
   * Logged on an active place just before its removal starts: a stop in the middle leaves
   * this, and the next start finishes the discard rather than reading the place as missing.
   */
  discarding?: { keepBranch: boolean };
}

/** One file of the place's whole change against its base, as the review shows it. */
export interface PlaceFileChange {
  /** Relative to the place (and so to the origin), forward slashes. */
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /**
   * `ready`: the person's file is still as at the base, so Apply writes it.
   * `conflict`: the person changed it since the base too; never overwritten.
   * `applied`: the person's file already holds exactly the place's version.
   */
  status: 'ready' | 'conflict' | 'applied';
  /** Unified diff, base → place, cut like a card's; null for a binary file. */
  diff: string | null;
  diffTruncated: boolean;
  /** Size in the place (for a deleted file, at the base). */
  bytes: number;
  /** SHA-256 of the person's file when the review was made, or "absent": Apply checks it again. */
  originDigest: string;
  /** A conflict's other side: unified diff base → the person's file now; null when binary. */
  theirsDiff?: string | null;
  /** A conflict in text: the three-way merge with conflict markers, for the person to read. */
  merged?: string;
}

/** The whole change of a place against its base (the `session.review` answer). */
export interface PlaceReview {
  place: SessionPlace;
  /** Names this review: Apply checks each file against the digests it recorded. */
  reviewId: string;
  reviewedAt: string;
  files: PlaceFileChange[];
  /** The files past the review's limit (not listed, not applied by this review). */
  more: number;
  /**
   * "Apply as a commit on my branch": the branch it lands on and the exact git commands the
   * app runs for it (shown on its card); null with `why` when the origin cannot take one
   * (not a repository, a detached HEAD).
   */
  commit: { branch: string; argv: string[][] } | { why: string } | null;
  /** "Discard": what it removes, and the exact git commands for a worktree. */
  discard: { removes: string[]; argv: string[][] };
  /** The place's size on disk, bytes. */
  bytes: number;
}

/** One file of an apply as it started: what the person's file was, and what it becomes. */
export interface PlaceApplyFile {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** SHA-256 of the person's file the review saw, or "absent". */
  from: string;
  /** SHA-256 of the place's version, or "absent" for a deletion. */
  to: string;
}

/** How an apply ended, file by file. */
export interface PlaceApplyOutcome {
  applied: string[];
  /** Changed by the person since the review: left as they are. */
  conflicts: string[];
  /** Not applied for another reason (each with the reason in words). */
  failed: { path: string; reason: string }[];
  /** The commit made on the person's branch, when the apply was as a commit. */
  commit?: string;
}

/** The `session.apply` answer: the outcome, or (for a model's proposal) the card it waits on. */
export type PlaceApplyReply = { applyId: string } & PlaceApplyOutcome;

/** A place in the data folder, as Settings lists it. */
export interface PlaceListing {
  path: string;
  kind: PlaceKind;
  origin: string;
  branch?: string;
  bytes: number;
  /** The session working in it; null when that session is gone (an orphan, removable). */
  sessionId: string | null;
  title?: string;
}
