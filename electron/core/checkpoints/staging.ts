/**
 * Brings a session's index up to the workspace, from what `git status` found: each
 * candidate is lstat'ed first, so a file over CHECKPOINT_FILE_MAX_BYTES is never read or
 * hashed (it leaves the index if it was there, and is reported), and only plain files and
 * links are handed to `git update-index`. Many files at once (a first snapshot) go into one
 * pack instead of a loose object each.
 *
 * A file whose name is not UTF-8 is not staged either: the app carries names as strings
 * and restores through them, so it could not be brought back. It is named as left out,
 * with its size and modification time, so a change to it still shows (left-out.ts).
 * A FIFO, socket or device is named as left out, and a tracked file it replaced is dropped.
 *
 * A tracked path that changed kind is forgotten first, in its own call: one that is a
 * folder now (its files come as untracked ones), and one whose way passes a link or a file
 * now (a folder replaced by a link). `update-index` refuses either as an update ("is a
 * directory", "is beyond a symbolic link"), and would refuse every later snapshot too.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { CHECKPOINT_FILE_MAX_BYTES } from '../../../shared/limits.js';
import type { UnreadableName } from './left-out.js';
import { GitError } from './git-run.js';
import { encodePath, hasEscapedBytes, inWorkspace } from './path-names.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import {
  attributesInTheWay,
  blocksGit,
  kindOf,
  waitedOn,
  type KnownSpecialFiles,
  type SpecialFile,
} from './special-files.js';
import type { WorkspaceStatus } from './workspace-status.js';

/** From this many files in one snapshot, git writes them as one pack (bulk check-in). */
const BULK_MIN_FILES = 100;
const LSTAT_PARALLEL = 64;

export interface Staged {
  tooLarge: { path: string; bytes: number }[];
  unreadable: UnreadableName[];
  /** Special files the status listed (a FIFO where a tracked file was). */
  special: SpecialFile[];
  /** Whether the index changed. */
  changed: boolean;
  /** How many files were hashed, and their bytes: what loose objects this may have added. */
  files: number;
  bytes: number;
}

interface Sorted {
  add: string[];
  /** Tracked paths the index forgets: nothing git keeps is there now, or not by this way. */
  drop: string[];
  tooLarge: { path: string; bytes: number; tracked: boolean }[];
  unreadable: UnreadableName[];
  special: SpecialFile[];
  bytes: number;
}

export async function stageChanges(
  shadow: ShadowGit,
  worktreeDir: string,
  status: WorkspaceStatus,
  known: KnownSpecialFiles,
): Promise<Staged> {
  const sorted = await sortCandidates(shadow.workspaceRoot, status);
  const forget = [...sorted.drop, ...sorted.tooLarge.filter((t) => t.tracked).map((t) => t.path)];
  const update = sorted.add;
  const locks = [path.join(worktreeDir, 'index.lock')];
  if (forget.length > 0) {
    await shadow.run({
      what: 'drop files from the checkpoint index',
      args: ['update-index', '--force-remove', '-z', '--stdin'],
      gitDir: worktreeDir,
      workTree: true,
      input: nulList(forget),
      locks,
    });
  }
  const inTheWay = attributesInTheWay(status.special, update);
  if (inTheWay.length > 0) {
    throw new GitError(`could not record the workspace's changed files: ${waitedOn(inTheWay)}`);
  }
  if (update.length > 0) {
    const bulk = sorted.add.length >= BULK_MIN_FILES ? ['-c', 'core.bigFileThreshold=1'] : [];
    await underWatchdog(shadow.workspaceRoot, known, watchdogMs(sorted), (timeoutMs) =>
      shadow.run({
        what: "record the workspace's changed files",
        args: [...bulk, 'update-index', '--add', '--remove', '--replace', '-z', '--stdin'],
        gitDir: worktreeDir,
        workTree: true,
        input: nulList(update),
        timeoutMs,
        locks,
      }),
    );
  }
  return {
    tooLarge: sorted.tooLarge.map(({ path: p, bytes }) => ({ path: p, bytes })),
    unreadable: sorted.unreadable,
    special: sorted.special,
    changed: forget.length + update.length > 0,
    files: sorted.add.length,
    bytes: sorted.bytes,
  };
}

/**
 * Hashing takes as long as the bytes: the watchdog allows for a slow, loaded disk (a
 * quarter of git's own speed here) and no more, so a file swapped for a FIFO after its
 * lstat, or a FIFO `.gitattributes` (git reads a folder's attributes before hashing a
 * file in it), stops a snapshot in seconds rather than at LONG_TIMEOUT_MS.
 */
function watchdogMs(sorted: Sorted): number {
  return Math.min(
    LONG_TIMEOUT_MS,
    STAGE_WATCHDOG_BASE_MS + sorted.add.length * MS_PER_FILE + sorted.bytes / BYTES_PER_MS,
  );
}

const STAGE_WATCHDOG_BASE_MS = 10_000;
const MS_PER_FILE = 2;
const BYTES_PER_MS = 5_000;

/** Runs the work with this timeout; when the watchdog stops it, says in words what git waited on, if it can tell. */
async function underWatchdog<T>(
  root: string,
  known: KnownSpecialFiles,
  timeoutMs: number,
  work: (timeoutMs: number) => Promise<T>,
): Promise<T> {
  const started = Date.now();
  try {
    return await work(timeoutMs);
  } catch (err) {
    if (!(err instanceof GitError) || Date.now() - started < timeoutMs) throw err;
    const blockers = (await known.findAndRemember(root)).filter(blocksGit);
    if (blockers.length === 0) throw err;
    throw new GitError(`could not record the workspace's changed files: ${waitedOn(blockers)}`);
  }
}

async function sortCandidates(root: string, status: WorkspaceStatus): Promise<Sorted> {
  const sorted: Sorted = { add: [], drop: [], tooLarge: [], unreadable: [], special: [], bytes: 0 };
  const candidates = [
    ...status.changed.map((p) => ({ p, tracked: true })),
    ...status.removed.map((p) => ({ p, tracked: true })),
    ...status.untracked.map((p) => ({ p, tracked: false })),
  ];
  const ways = new Ways(root);
  for (let i = 0; i < candidates.length; i += LSTAT_PARALLEL) {
    const batch = candidates.slice(i, i + LSTAT_PARALLEL);
    const stats = await Promise.all(batch.map(({ p }) => lookAt(root, ways, p)));
    batch.forEach(({ p, tracked }, j) => place(sorted, p, tracked, stats[j] as Stats | null | 'blocked'));
  }
  return sorted;
}

/** What is at p, never through a link: 'blocked' when a folder on its way is a link or a file now. */
async function lookAt(root: string, ways: Ways, p: string): Promise<Stats | null | 'blocked'> {
  if (!(await ways.clear(p))) return 'blocked';
  return lstat(inWorkspace(root, p)).catch(() => null);
}

function place(sorted: Sorted, p: string, tracked: boolean, st: Stats | null | 'blocked'): void {
  const special = st !== 'blocked' && st !== null ? kindOf(st) : null;
  if (special) sorted.special.push({ path: p, kind: special });
  if (st === 'blocked' || st === null) {
    if (tracked) sorted.drop.push(p); // gone, or reached only through a link now
  } else if (hasEscapedBytes(p)) {
    if (tracked) sorted.drop.push(p); // staged by an older version: the app cannot restore it
    if (!st.isDirectory() && !special) sorted.unreadable.push({ path: p, bytes: st.size, mtimeMs: st.mtimeMs });
  } else if (st.isFile() && st.size > CHECKPOINT_FILE_MAX_BYTES) {
    sorted.tooLarge.push({ path: p, bytes: st.size, tracked });
  } else if (st.isFile() || st.isSymbolicLink()) {
    sorted.add.push(p);
    sorted.bytes += st.size;
  } else if (tracked) {
    sorted.drop.push(p); // a folder (status lists what is inside), a pipe or a device where a file was
  }
}

/** Whether every folder on the way to a path is a real folder now, each looked at once. */
class Ways {
  private readonly seen = new Map<string, Promise<boolean>>();

  constructor(private readonly root: string) {}

  async clear(p: string): Promise<boolean> {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (!(await this.isFolder(parts.slice(0, i).join('/')))) return false;
    }
    return true;
  }

  private isFolder(rel: string): Promise<boolean> {
    let known = this.seen.get(rel);
    if (!known) {
      known = lstat(inWorkspace(this.root, rel)).then(
        (st) => st.isDirectory(),
        () => true, // missing: the path itself is missing too, and lstat says so
      );
      this.seen.set(rel, known);
    }
    return known;
  }
}

/** The names as git's `-z` input: their bytes, each ended by a NUL. */
function nulList(paths: readonly string[]): Buffer {
  return Buffer.concat(paths.flatMap((p) => [encodePath(p), NUL]));
}

const NUL = Buffer.of(0);
