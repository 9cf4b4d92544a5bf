/**
 * One snapshot of the workspace into a session's worktree of the shadow repo: status,
 * stage, `write-tree`, `commit-tree` (no parent; the message carries what was left out),
 * then HEAD and a `refs/snapshots/<time>-<id>` ref in one transaction. The ref keeps the
 * snapshot alive for git's housekeeping and orders snapshots oldest first for the prune.
 *
 * When nothing changed since the session's last snapshot (same index, same things left
 * out), the last snapshot is the answer: no object or ref is written, and the cost is the
 * status alone.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Snapshot } from './checkpoint-store.js';
import { GitError } from './git-run.js';
import { leftOutMessage, summarize, type LeftOut } from './left-out.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import type { KnownSpecialFiles, SpecialFile } from './special-files.js';
import { stageChanges } from './staging.js';
import { readStatus } from './workspace-status.js';

export const SNAPSHOT_REFS = 'refs/snapshots/';

/** A session's memory of its last snapshot, so an unchanged workspace costs one status. */
export interface LastSnapshot {
  snapshot: Snapshot;
  message: string;
}

export interface SnapshotOutcome {
  snapshot: Snapshot;
  last: LastSnapshot;
  /** Files hashed into new objects, and their bytes (for the repack policy). */
  files: number;
  bytes: number;
}

export async function takeSnapshot(
  shadow: ShadowGit,
  worktreeDir: string,
  last: LastSnapshot | undefined,
  known: KnownSpecialFiles,
): Promise<SnapshotOutcome> {
  try {
    return await snapshotOnce(shadow, worktreeDir, last, known);
  } catch (err) {
    if (!(err instanceof GitError) || !BROKEN_INDEX.test(err.message)) throw err;
    // An index git cannot read (a disk that lost a write): start it again from the workspace.
    rmSync(path.join(worktreeDir, 'index'), { force: true });
    return snapshotOnce(shadow, worktreeDir, undefined, known);
  }
}

const BROKEN_INDEX = /index file|bad signature|index uses .* extension|invalid object|unable to read|corrupt/i;

async function snapshotOnce(
  shadow: ShadowGit,
  worktreeDir: string,
  last: LastSnapshot | undefined,
  known: KnownSpecialFiles,
): Promise<SnapshotOutcome> {
  const locks = clearStaleLocks(worktreeDir);
  const status = await readStatus(shadow, worktreeDir, known);
  const staged = await stageChanges(shadow, worktreeDir, status, known);
  const left: LeftOut = {
    tooLarge: staged.tooLarge,
    nested: status.nested,
    ignored: status.ignored,
    unreadable: staged.unreadable,
    special: bothSpecial(status.special, staged.special),
  };
  const message = leftOutMessage(left);
  if (last && !staged.changed && !status.indexAhead && last.message === message) {
    return { snapshot: last.snapshot, last, files: 0, bytes: 0 };
  }
  const tree = await shadow.text({
    what: 'write the snapshot tree',
    args: ['write-tree'],
    gitDir: worktreeDir,
    timeoutMs: LONG_TIMEOUT_MS,
    locks: [locks.index],
  });
  const id = await shadow.text({ what: 'record the snapshot', args: ['commit-tree', tree], input: message });
  await shadow.run({
    what: 'keep the snapshot',
    args: ['update-ref', '--stdin'],
    gitDir: worktreeDir,
    input: `option no-deref\nupdate HEAD ${id}\nupdate ${snapshotRef(id)} ${id}\n`,
    locks: [locks.head],
  });
  const snapshot = { id, skipped: summarize(left) };
  return { snapshot, last: { snapshot, message }, files: staged.files, bytes: staged.bytes };
}

/** The special files the walk knows and those the status listed, each once, by path. */
function bothSpecial(known: readonly SpecialFile[], listed: readonly SpecialFile[]): SpecialFile[] {
  const byPath = new Map([...known, ...listed].map((f) => [f.path, f]));
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function snapshotRef(id: string): string {
  return `${SNAPSHOT_REFS}${String(Date.now()).padStart(15, '0')}-${id}`;
}

/**
 * A session's commands never overlap (store-lock.ts), so a lock file in its worktree dir
 * at the start of one is a killed process's, and would block every snapshot after it.
 */
function clearStaleLocks(worktreeDir: string): { index: string; head: string } {
  const locks = { index: path.join(worktreeDir, 'index.lock'), head: path.join(worktreeDir, 'HEAD.lock') };
  rmSync(locks.index, { force: true });
  rmSync(locks.head, { force: true });
  return locks;
}
