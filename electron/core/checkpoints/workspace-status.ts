/**
 * What changed in the workspace since a session's last snapshot, as one `git status` on
 * the session's index: the index's stat cache makes an unchanged tree cheap (one lstat a
 * file, no hashing), the untracked cache spares unchanged folders, and the same walk names
 * the ignored paths and the nested repositories (a folder with its own `.git`, which git
 * shows as `sub/` and does not enter). It also refreshes the index's stat cache.
 *
 * The status never blocks a step for long: it runs under a watchdog of seconds, scaled
 * with the index (special-files.ts says what git can wait on forever). When the watchdog
 * fires, the workspace's special files are found, each FIFO `.gitignore` is held open and
 * the status runs again; they stay remembered, so later snapshots hold them at once (the
 * root's `.gitignore` and `.gitattributes` are looked at every time, before any wait). A
 * status with nothing to wait on that was only slow runs once more, to LONG_TIMEOUT_MS.
 *
 * Names are bytes in git's output: path-names.ts turns them into strings that lead back.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { GitError } from './git-run.js';
import { decodePath } from './path-names.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import {
  AT_THE_ROOT,
  attributesInTheWay,
  blocksGit,
  canHold,
  holdIgnoreFifos,
  stillThere,
  waitedOn,
  type KnownSpecialFiles,
  type SpecialFile,
} from './special-files.js';

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
  /** FIFOs, sockets and devices known in the workspace: never staged, named as left out. */
  special: SpecialFile[];
}

/** The watchdog: this long for any status, */
export const STATUS_WATCHDOG_BASE_MS = 5_000;
/**
 * and this much more per byte of the index (about 80 bytes a file): 0.16 ms a file, some
 * 50 times what a warm status takes here (20k files: 1.6 MB of index, 0.05 s), so a
 * loaded machine or a cold disk still finishes; one that does not is tried again.
 */
const WATCHDOG_MS_PER_INDEX_BYTE = 0.002;

export async function readStatus(
  shadow: ShadowGit,
  worktreeDir: string,
  known: KnownSpecialFiles,
): Promise<WorkspaceStatus> {
  const root = shadow.workspaceRoot;
  const watchdog = await watchdogMs(worktreeDir);
  const stillKnown = await stillThere(root, withoutRepeats([...AT_THE_ROOT, ...known.of(root)]));
  // git reads the root's attributes to compare any file written within the second of its
  // last snapshot, and before it hashes any: no snapshot gets past a FIFO there.
  const atTheRoot = attributesInTheWay(
    stillKnown.filter((f) => !f.path.includes('/')),
    [],
  );
  if (atTheRoot.length > 0) throw new GitError(`could not list the workspace's changes: ${waitedOn(atTheRoot)}`);
  const first = await statusHolding(shadow, worktreeDir, stillKnown, watchdog);
  if (first) return first;
  // Blocked, or only slow: find what git could be waiting on, and try once more.
  const special = await known.findAndRemember(root);
  const blockers = special.filter(blocksGit);
  // Only a held `.gitignore` can let git past; a FIFO `.gitattributes` would stop it again.
  const worthIt = blockers.length === 0 || blockers.every(canHold);
  const second = worthIt
    ? await statusHolding(shadow, worktreeDir, special, blockers.length > 0 ? watchdog : LONG_TIMEOUT_MS)
    : null;
  if (second) return second;
  throw new GitError(
    blockers.length > 0
      ? `could not list the workspace's changes: ${waitedOn(blockers)}`
      : `could not list the workspace's changes: git status did not finish in ${LONG_TIMEOUT_MS / 60_000} minutes`,
  );
}

function withoutRepeats(files: readonly SpecialFile[]): SpecialFile[] {
  return [...new Map(files.map((f) => [f.path, f])).values()];
}

/** The status with each FIFO `.gitignore` held open; null when the watchdog stopped it. */
async function statusHolding(
  shadow: ShadowGit,
  worktreeDir: string,
  special: SpecialFile[],
  timeoutMs: number,
): Promise<WorkspaceStatus | null> {
  const release = await holdIgnoreFifos(shadow.workspaceRoot, special);
  const started = Date.now();
  try {
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
      timeoutMs,
      locks: [path.join(worktreeDir, 'index.lock')],
    });
    return { ...parseStatus(stdout), special };
  } catch (err) {
    // A stop by the watchdog is the only failure that takes the whole timeout.
    if (err instanceof GitError && Date.now() - started >= timeoutMs) return null;
    throw err;
  } finally {
    await release();
  }
}

/** Seconds, not minutes: 20k files get 8 s, a million (an 80 MB index) under 3 minutes. */
async function watchdogMs(worktreeDir: string): Promise<number> {
  const bytes = (await stat(path.join(worktreeDir, 'index')).catch(() => null))?.size ?? 0;
  return Math.min(LONG_TIMEOUT_MS, Math.round(STATUS_WATCHDOG_BASE_MS + bytes * WATCHDOG_MS_PER_INDEX_BYTE));
}

/** What one status record says, before the special files are added. */
export type ParsedStatus = Omit<WorkspaceStatus, 'special'>;

/** Parses `git status --porcelain=v2 -z` (with renames off, so one path per record), names as bytes. */
export function parseStatus(output: Buffer): ParsedStatus {
  const status: ParsedStatus = {
    changed: [],
    removed: [],
    untracked: [],
    nested: [],
    ignored: [],
    indexAhead: false,
  };
  const records = splitNul(output);
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as Buffer;
    const kind = String.fromCharCode(record[0] ?? 0);
    if (kind === '?') untracked(status, record.subarray(2));
    else if (kind === '!') status.ignored.push(decodePath(record.subarray(2)));
    else if (kind === '1') tracked(status, record.toString('latin1', 2, 4), afterFields(record, 8));
    else if (kind === 'u') tracked(status, 'MM', afterFields(record, 10));
    else if (kind === '2') {
      tracked(status, record.toString('latin1', 2, 4), afterFields(record, 9));
      i++; // a rename's record is followed by its original path
    }
  }
  return status;
}

function splitNul(output: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let from = 0;
  for (let at = output.indexOf(0); at >= 0; at = output.indexOf(0, from)) {
    records.push(output.subarray(from, at));
    from = at + 1;
  }
  if (from < output.length) records.push(output.subarray(from));
  return records;
}

function untracked(status: ParsedStatus, name: Buffer): void {
  const p = decodePath(name);
  if (p.endsWith('/')) status.nested.push(p.slice(0, -1));
  else status.untracked.push(p);
}

function tracked(status: ParsedStatus, xy: string, name: Buffer): void {
  if (xy[0] !== '.') status.indexAhead = true;
  const p = decodePath(name);
  const inWorktree = xy[1];
  if (inWorktree === 'D') status.removed.push(p);
  else if (inWorktree !== '.') status.changed.push(p);
}

/** The name of a record: what follows its first `fields` space-separated fields (a name may hold spaces). */
function afterFields(record: Buffer, fields: number): Buffer {
  let at = 0;
  for (let n = 0; n < fields; n++) at = record.indexOf(0x20, at) + 1;
  return record.subarray(at);
}
