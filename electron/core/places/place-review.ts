/**
 * A place's whole change, checked against the person's folder now (SPEC §15): the base
 * snapshot against a fresh one through the session's checkpoint store (the same for a
 * worktree and a copy; no config of the person's read, no filter run, ignored files left
 * out as the store leaves them out). Each file's status compares digests: the person's file
 * still as at the base is `ready`; already the place's version, `applied`; anything else a
 * `conflict`, shown with their side's diff and a three-way merge to read.
 */
import { isUtf8 } from 'node:buffer';
import type { ChangedFile } from '../../../shared/checkpoints.js';
import { CHANGES_DIFF_MAX_FILES } from '../../../shared/limits.js';
import type { PlaceFileChange } from '../../../shared/places.js';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { cutDiff } from '../checkpoints/file-diff.js';
import { unifiedDiffOfBytes } from '../diff/bytes-diff.js';
import { NotAFileError } from '../paths/regular-file.js';
import { ABSENT, checkRelative, digestUnder, readUnder, sha256, type FileBytes } from './origin-files.js';
import { threeWayMerge } from './three-way-merge.js';

/** Files past this many are counted in `more`, not reviewed (nor applied by this review). */
export const REVIEW_MAX_FILES = 5000;
/** The place's side is not a regular file (a link): it is listed, and Apply says it cannot write it. */
export const NOT_REGULAR = 'not-a-regular-file';
/** The base's side is not in the snapshot (too large for the store): it matches nothing. */
export const BASE_UNKNOWN = 'unknown';

/** What a review keeps of a file, for Apply to check again. */
export interface ReviewedFile {
  path: string;
  change: ChangedFile['change'];
  base: string;
  /** The person's file when reviewed. */
  from: string;
  /** The place's version. */
  to: string;
  mode: number;
  status: PlaceFileChange['status'];
}

export interface ReviewSides {
  store: CheckpointStore;
  git: string;
  baseSnapshot: string;
  origin: string;
  placeDir: string;
}

export async function reviewFiles(
  sides: ReviewSides,
): Promise<{ files: PlaceFileChange[]; kept: ReviewedFile[]; more: number }> {
  const now = await sides.store.snapshot();
  const changed = await sides.store.changes(sides.baseSnapshot, now.id);
  const listed = changed.filter((c) => checkRelative(c.path) === null);
  const shown = listed.slice(0, REVIEW_MAX_FILES);
  const files: PlaceFileChange[] = [];
  const kept: ReviewedFile[] = [];
  for (const [i, change] of shown.entries()) {
    const { file, reviewed } = await reviewOne(sides, change, now.id, i < CHANGES_DIFF_MAX_FILES);
    files.push(file);
    kept.push(reviewed);
  }
  return { files, kept, more: listed.length - shown.length };
}

async function reviewOne(
  sides: ReviewSides,
  change: ChangedFile,
  now: string,
  withDiff: boolean,
): Promise<{ file: PlaceFileChange; reviewed: ReviewedFile }> {
  const baseBytes = change.change === 'added' ? null : await sides.store.read(sides.baseSnapshot, change.path);
  const base = change.change === 'added' ? ABSENT : baseBytes ? sha256(baseBytes) : BASE_UNKNOWN;
  const placeFile = await placeSide(sides.placeDir, change);
  const to = placeFile === 'other' ? NOT_REGULAR : placeFile ? sha256(placeFile.bytes) : ABSENT;
  const from = await digestUnder(sides.origin, change.path);
  const status: PlaceFileChange['status'] = from === to ? 'applied' : from === base ? 'ready' : 'conflict';
  const { diff, truncated } = withDiff
    ? await sides.store.diff(sides.baseSnapshot, now, change.path)
    : { diff: null, truncated: true };
  const file: PlaceFileChange = {
    path: change.path,
    change: change.change,
    status,
    diff,
    diffTruncated: truncated,
    bytes: change.bytes,
    originDigest: from,
    ...(status === 'conflict' ? await conflictSides(sides, change.path, baseBytes, placeFile) : {}),
  };
  const mode = placeFile && placeFile !== 'other' ? placeFile.mode : 0o644;
  return { file, reviewed: { path: change.path, change: change.change, base, from, to, mode, status } };
}

async function placeSide(placeDir: string, change: ChangedFile): Promise<FileBytes | null | 'other'> {
  if (change.change === 'deleted') return null;
  try {
    return await readUnder(placeDir, change.path);
  } catch (err) {
    if (err instanceof NotAFileError) return 'other';
    throw err;
  }
}

/** Their side (base → the person's file) and the merge with conflict markers, for text. */
async function conflictSides(
  sides: ReviewSides,
  rel: string,
  baseBytes: Buffer | null,
  placeFile: FileBytes | null | 'other',
): Promise<Pick<PlaceFileChange, 'theirsDiff' | 'merged'>> {
  const yours = await readUnder(sides.origin, rel).catch(() => null);
  if (!yours) return { theirsDiff: null };
  const diff = unifiedDiffOfBytes({ path: rel, before: baseBytes, after: yours.bytes });
  const text = diff.lines.join('');
  const theirsDiff =
    text && isText(yours.bytes) && (baseBytes === null || isText(baseBytes)) ? cutDiff(text).diff : null;
  const session = placeFile && placeFile !== 'other' ? placeFile.bytes : null;
  if (!session || ![yours.bytes, session, baseBytes ?? Buffer.alloc(0)].every(isText)) return { theirsDiff };
  const merged = await threeWayMerge(sides.git, { yours: yours.bytes, base: baseBytes ?? Buffer.alloc(0), session });
  return { theirsDiff, merged };
}

/** UTF-8 with no NUL near the start: what a person can read as text. */
function isText(bytes: Buffer): boolean {
  return isUtf8(bytes) && !bytes.subarray(0, 8000).includes(0);
}
