/**
 * Brings a session's index up to the workspace, from what `git status` found: each
 * candidate is lstat'ed first, so a file over CHECKPOINT_FILE_MAX_BYTES is never read or
 * hashed (it leaves the index if it was there, and is reported), and only plain files and
 * links are handed to `git update-index`. Many files at once (a first snapshot) go into one
 * pack instead of a loose object each.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { CHECKPOINT_FILE_MAX_BYTES } from '../../../shared/limits.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import type { WorkspaceStatus } from './workspace-status.js';

/** From this many files in one snapshot, git writes them as one pack (bulk check-in). */
const BULK_MIN_FILES = 100;
const LSTAT_PARALLEL = 64;

export interface Staged {
  tooLarge: { path: string; bytes: number }[];
  /** Whether the index changed. */
  changed: boolean;
  /** How many files were hashed, and their bytes: what loose objects this may have added. */
  files: number;
  bytes: number;
}

interface Sorted {
  add: string[];
  drop: string[];
  tooLarge: { path: string; bytes: number; tracked: boolean }[];
  bytes: number;
}

export async function stageChanges(shadow: ShadowGit, worktreeDir: string, status: WorkspaceStatus): Promise<Staged> {
  const sorted = await sortCandidates(shadow.workspaceRoot, status);
  const forget = [...sorted.drop, ...sorted.tooLarge.filter((t) => t.tracked).map((t) => t.path)];
  const update = [...sorted.add, ...status.removed];
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
  if (update.length > 0) {
    const bulk = sorted.add.length >= BULK_MIN_FILES ? ['-c', 'core.bigFileThreshold=1'] : [];
    await shadow.run({
      what: "record the workspace's changed files",
      args: [...bulk, 'update-index', '--add', '--remove', '--replace', '-z', '--stdin'],
      gitDir: worktreeDir,
      workTree: true,
      input: nulList(update),
      timeoutMs: LONG_TIMEOUT_MS,
      locks,
    });
  }
  return {
    tooLarge: sorted.tooLarge.map(({ path: p, bytes }) => ({ path: p, bytes })),
    changed: forget.length + update.length > 0,
    files: sorted.add.length,
    bytes: sorted.bytes,
  };
}

async function sortCandidates(root: string, status: WorkspaceStatus): Promise<Sorted> {
  const sorted: Sorted = { add: [], drop: [], tooLarge: [], bytes: 0 };
  const candidates = [
    ...status.changed.map((p) => ({ p, tracked: true })),
    ...status.untracked.map((p) => ({ p, tracked: false })),
  ];
  for (let i = 0; i < candidates.length; i += LSTAT_PARALLEL) {
    const batch = candidates.slice(i, i + LSTAT_PARALLEL);
    const stats = await Promise.all(batch.map(({ p }) => lstat(path.join(root, p)).catch(() => null)));
    batch.forEach(({ p, tracked }, j) => place(sorted, p, tracked, stats[j] ?? null));
  }
  return sorted;
}

function place(sorted: Sorted, p: string, tracked: boolean, st: Stats | null): void {
  if (st === null) {
    if (tracked) sorted.add.push(p); // gone since status: --remove drops it
  } else if (st.isFile() && st.size > CHECKPOINT_FILE_MAX_BYTES) {
    sorted.tooLarge.push({ path: p, bytes: st.size, tracked });
  } else if (st.isFile() || st.isSymbolicLink()) {
    sorted.add.push(p);
    sorted.bytes += st.size;
  } else if (tracked && st.isDirectory()) {
    sorted.add.push(p); // a file that became a folder: update-index drops the file, status lists what is inside
  } else if (tracked) {
    sorted.drop.push(p); // a pipe or device where a file was: nothing git can keep
  }
}

function nulList(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}
