/**
 * Where places live in the data folder (SPEC §15): `<dataDir>/places/<sessionId>/<name>/`,
 * the name the origin's own (so a prompt, a path in an error, reads like the person's
 * folder), and beside it `place.json`, written once when the place is made, so Settings can
 * list a place whose session is gone.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SessionPlace } from '../../../shared/places.js';
import { writeFileAtomic } from '../files/atomic-file.js';

export const PLACES_FOLDER = 'places';
const PLACE_FILE = 'place.json';

/** A session id as the session store makes them; anything else never names a folder here. */
const SESSION_ID = /^[0-9A-Za-z_-]{1,128}$/;

export function placesRoot(dataDir: string): string {
  return path.join(dataDir, PLACES_FOLDER);
}

/** The place folder of a session made from `origin`. */
export function placeDirFor(dataDir: string, sessionId: string, origin: string): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`not a session id: ${sessionId}`);
  return path.join(placesRoot(dataDir), sessionId, folderName(origin));
}

/** The origin's own name; a root or odd name becomes "workspace". */
function folderName(origin: string): string {
  const base = path.basename(origin);
  return base && base !== '.' && base !== '..' ? base : 'workspace';
}

/**
 * Whether `dir` (a real path) is exactly the place folder of session `sessionId`: one
 * folder below `<places>/<sessionId>/`. The data-folder refusal admits this and nothing else.
 */
export function isPlaceFolderOf(realDataDir: string, sessionId: string, dir: string): boolean {
  if (!SESSION_ID.test(sessionId)) return false;
  const holder = path.join(placesRoot(realDataDir), sessionId);
  return path.dirname(dir) === holder && path.basename(dir) !== '';
}

/** What place.json holds: enough to list the place and remove it without its session. */
const PlaceFile = z.object({
  sessionId: z.string(),
  title: z.string().optional(),
  place: z.object({
    kind: z.enum(['worktree', 'copy']),
    origin: z.string(),
    path: z.string(),
    branch: z.string().optional(),
    baseCommit: z.string().optional(),
    state: z.enum(['active', 'discarded']),
  }),
});
export type PlaceRecord = z.infer<typeof PlaceFile>;

export async function writePlaceRecord(record: PlaceRecord): Promise<void> {
  await writeFileAtomic(path.join(path.dirname(record.place.path), PLACE_FILE), JSON.stringify(record));
}

/** The record beside a session's place, or null when there is none (or it cannot be read). */
export async function readPlaceRecord(holder: string): Promise<PlaceRecord | null> {
  const text = await fs.readFile(path.join(holder, PLACE_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return PlaceFile.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

export function placeOfRecord(record: PlaceRecord): SessionPlace {
  const { place } = record;
  return {
    kind: place.kind,
    origin: place.origin,
    path: place.path,
    ...(place.branch ? { branch: place.branch } : {}),
    ...(place.baseCommit ? { baseCommit: place.baseCommit } : {}),
    state: place.state,
  };
}
