/**
 * Apply as files (SPEC §15): the place's versions written into the person's folder, each
 * file only while it is still what the review saw. The caller logs `place_apply` (every
 * file's from and to digests) before this writes anything, so a stop at any point is
 * settled at the next start by `settleInterrupted`: each file is then exactly one of
 * written (its digest is `to`), not written (still `from`), or changed by the person.
 *
 * Nothing is fsynced, as `git apply` fsyncs nothing: a stopped process cannot leave half a
 * file (each is renamed into place whole), and fsyncing each file and folder made an apply
 * of 100 files some ten times slower than `git apply` of the same change.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PlaceApplyFile, PlaceApplyOutcome } from '../../../shared/places.js';
import { NotAFileError } from '../paths/regular-file.js';
import {
  ABSENT,
  deleteUnder,
  digestUnder,
  NOT_A_FILE,
  readPlaceFile,
  readWithFolder,
  sha256,
  writeUnder,
} from './origin-files.js';

export const STOPPED_BEFORE = 'Gatehouse stopped before this file was written';
/** How a write's temporary file is named (origin-files.ts): `.<name>.gatehouse-<hex>`. */
const TEMP_OF = (name: string) => new RegExp(`^\\.${escape(name)}\\.gatehouse-[0-9a-f]{8}$`);

export interface ApplySides {
  origin: string;
  placeDir: string;
  /** The mode each file is written with (the place's), by path. */
  modes: ReadonlyMap<string, number>;
  /** Told after each file, for a test to stop the process mid-apply. */
  onFile?: (path: string) => void;
}

export async function applyFiles(sides: ApplySides, files: readonly PlaceApplyFile[]): Promise<PlaceApplyOutcome> {
  const results: Result[] = new Array<Result>(files.length);
  let ranSince = performance.now();
  for (const [i, file] of files.entries()) {
    results[i] = await applyOne(sides, file).catch((err: unknown) => ({ failed: (err as Error).message }));
    sides.onFile?.(file.path);
    // Each file's reads and write are synchronous (origin-files.ts): the event loop runs between files.
    if (performance.now() - ranSince >= YIELD_AFTER_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      ranSince = performance.now();
    }
  }
  const outcome: PlaceApplyOutcome = { applied: [], conflicts: [], failed: [] };
  results.forEach((r, i) => {
    const p = files[i]!.path;
    if (r === 'applied') outcome.applied.push(p);
    else if (r === 'conflict') outcome.conflicts.push(p);
    else outcome.failed.push({ path: p, reason: r.failed });
  });
  return outcome;
}

type Result = 'applied' | 'conflict' | { failed: string };

/** How long an apply writes files before it lets the event loop run (a turn for each few files cost a fiftieth). */
const YIELD_AFTER_MS = 8;

async function applyOne(sides: ApplySides, file: PlaceApplyFile): Promise<Result> {
  const read = readOrOther(sides.origin, file.path);
  const theirs = read === 'other' ? 'other' : read.file;
  const now = theirs === 'other' ? NOT_A_FILE : theirs ? sha256(theirs.bytes) : ABSENT;
  if (now === file.to) return 'applied';
  if (now !== file.from) return 'conflict';
  if (file.to === ABSENT) {
    await deleteUnder(sides.origin, file.path);
    return 'applied';
  }
  const placed = await readPlaceFile(sides.placeDir, file.path).catch((err: unknown) => {
    if (err instanceof NotAFileError) throw new Error('not a regular file in the place (a link is never applied)');
    throw err;
  });
  if (!placed || sha256(placed.bytes) !== file.to) {
    return { failed: 'it changed in the place since the review: review again' };
  }
  // A file the person has keeps its mode; a new one takes the place's.
  const mode = theirs && theirs !== 'other' ? theirs.mode : (sides.modes.get(file.path) ?? placed.mode);
  // Into the folder the read just checked (no link on the way); one missing then is checked and made now.
  await writeUnder(sides.origin, file.path, placed.bytes, mode, read !== 'other' ? (read.dir ?? undefined) : undefined);
  return 'applied';
}

function readOrOther(root: string, rel: string): ReturnType<typeof readWithFolder> | 'other' {
  try {
    return readWithFolder(root, rel);
  } catch (err) {
    if (err instanceof NotAFileError) return 'other';
    throw err;
  }
}

/** An apply a stop cut short, settled file by file from what is on disk now. */
export async function settleInterrupted(origin: string, files: readonly PlaceApplyFile[]): Promise<PlaceApplyOutcome> {
  const outcome: PlaceApplyOutcome = { applied: [], conflicts: [], failed: [] };
  for (const file of files) {
    await removeTemps(origin, file.path);
    const now = await digestUnder(origin, file.path).catch(() => null);
    if (now === file.to) outcome.applied.push(file.path);
    else if (now === file.from) outcome.failed.push({ path: file.path, reason: STOPPED_BEFORE });
    else outcome.conflicts.push(file.path);
  }
  return outcome;
}

/** A write's temporary file the stop left beside its target (never the target itself). */
async function removeTemps(origin: string, rel: string): Promise<void> {
  const dir = path.join(origin, path.dirname(rel));
  const st = await fs.lstat(dir).catch(() => null);
  if (!st?.isDirectory()) return;
  const temp = TEMP_OF(path.basename(rel));
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => temp.test(n)).map((n) => fs.rm(path.join(dir, n), { force: true })));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
