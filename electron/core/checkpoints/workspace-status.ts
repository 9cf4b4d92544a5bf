/**
 * What changed in the workspace since a session's last snapshot, as one `git status` on
 * the session's index: the index's stat cache makes an unchanged tree cheap (one lstat a
 * file, no hashing), the untracked cache spares unchanged folders, and the same walk names
 * the ignored paths and the nested repositories (a folder with its own `.git`, which git
 * shows as `sub/` and does not enter). It also refreshes the index's stat cache.
 */
import path from 'node:path';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';

export interface WorkspaceStatus {
  /** Tracked files whose content, mode or type changed: to stage again. */
  changed: string[];
  /** Tracked files that are gone: to drop from the index. */
  removed: string[];
  /** Files the index does not have yet. */
  untracked: string[];
  /** Folders holding their own repository, without the trailing slash. */
  nested: string[];
  /** Ignored paths as git names them (a folder with its trailing slash, not entered). */
  ignored: string[];
  /** The index differs from HEAD (an earlier snapshot was cut short after staging). */
  indexAhead: boolean;
}

export async function readStatus(shadow: ShadowGit, worktreeDir: string): Promise<WorkspaceStatus> {
  const { stdout } = await shadow.run({
    what: "list the workspace's changes",
    args: [
      'status',
      '--porcelain=v2',
      '-z',
      '--untracked-files=all',
      '--ignored=matching',
      '--no-renames',
      '--ignore-submodules=all',
    ],
    gitDir: worktreeDir,
    workTree: true,
    timeoutMs: LONG_TIMEOUT_MS,
    locks: [path.join(worktreeDir, 'index.lock')],
  });
  return parseStatus(stdout.toString('utf8'));
}

/** Parses `git status --porcelain=v2 -z` (with renames off, so one path per record). */
export function parseStatus(text: string): WorkspaceStatus {
  const status: WorkspaceStatus = {
    changed: [],
    removed: [],
    untracked: [],
    nested: [],
    ignored: [],
    indexAhead: false,
  };
  const records = text.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as string;
    const kind = record[0];
    if (kind === '?') untracked(status, record.slice(2));
    else if (kind === '!') status.ignored.push(record.slice(2));
    else if (kind === '1') tracked(status, record.slice(2, 4), afterFields(record, 8));
    else if (kind === 'u') tracked(status, 'MM', afterFields(record, 10));
    else if (kind === '2') {
      tracked(status, record.slice(2, 4), afterFields(record, 9));
      i++; // a rename's record is followed by its original path
    }
  }
  return status;
}

function untracked(status: WorkspaceStatus, p: string): void {
  if (p.endsWith('/')) status.nested.push(p.slice(0, -1));
  else status.untracked.push(p);
}

function tracked(status: WorkspaceStatus, xy: string, p: string): void {
  if (xy[0] !== '.') status.indexAhead = true;
  const inWorktree = xy[1];
  if (inWorktree === 'D') status.removed.push(p);
  else if (inWorktree !== '.') status.changed.push(p);
}

/** The path of a record: what follows its first `fields` space-separated fields. */
function afterFields(record: string, fields: number): string {
  let at = 0;
  for (let n = 0; n < fields; n++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}
