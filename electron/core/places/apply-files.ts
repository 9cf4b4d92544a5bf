/**
 * Apply as files (SPEC §15): the place's versions written into the person's folder, each
 * file only while it is still what the review saw. The caller logs `place_apply` (every
 * file's from and to digests) before this writes anything, so a stop at any point is
 * settled at the next start by `settleInterrupted`: each file is then exactly one of
 * written (its digest is `to`), not written (still `from`), or changed by the person.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PlaceApplyFile, PlaceApplyOutcome } from '../../../shared/places.js';
import { NotAFileError } from '../paths/regular-file.js';
import { ABSENT, deleteUnder, digestUnder, readUnder, sha256, writeUnder } from './origin-files.js';

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
  const outcome: PlaceApplyOutcome = { applied: [], conflicts: [], failed: [] };
  for (const file of files) {
    try {
      await applyOne(sides, file, outcome);
    } catch (err) {
      outcome.failed.push({ path: file.path, reason: (err as Error).message });
    }
    sides.onFile?.(file.path);
  }
  return outcome;
}

async function applyOne(sides: ApplySides, file: PlaceApplyFile, outcome: PlaceApplyOutcome): Promise<void> {
  const now = await digestUnder(sides.origin, file.path);
  if (now === file.to) return void outcome.applied.push(file.path);
  if (now !== file.from) return void outcome.conflicts.push(file.path);
  if (file.to === ABSENT) {
    await deleteUnder(sides.origin, file.path);
    return void outcome.applied.push(file.path);
  }
  const placed = await readUnder(sides.placeDir, file.path).catch((err: unknown) => {
    if (err instanceof NotAFileError) throw new Error('not a regular file in the place (a link is never applied)');
    throw err;
  });
  if (!placed || sha256(placed.bytes) !== file.to) {
    outcome.failed.push({ path: file.path, reason: 'it changed in the place since the review: review again' });
    return;
  }
  // A file the person has keeps its mode; a new one takes the place's.
  const theirs = now === ABSENT ? null : await readUnder(sides.origin, file.path);
  await writeUnder(sides.origin, file.path, placed.bytes, theirs?.mode ?? sides.modes.get(file.path) ?? placed.mode);
  outcome.applied.push(file.path);
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
