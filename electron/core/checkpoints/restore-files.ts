/**
 * Makes some workspace paths match a snapshot, byte for byte with their mode. Paths the
 * snapshot has are written by `git checkout-index` from a temporary index holding only
 * them; the others are deleted here, each path lstat'ed first, never through a link and
 * never a folder. Two kinds of path are left alone and returned: one the snapshot left out
 * (too large, inside a nested repository), which it cannot bring back, and one whose file
 * now is over the size cap, which no snapshot holds, so nothing could bring it back after.
 *
 * Deletions go first (a turn that replaced a folder by a file is undone by deleting the
 * file, then writing the folder's files), and an empty folder where a file goes makes way;
 * a path whose way is still blocked after them (a
 * folder where the file goes, a file or link where a parent folder goes) is refused with
 * an Error before anything is written, rather than have git delete what is in the way.
 * Whether it will be is judged before the deletions, so that the deletions and the writes
 * run as one program.
 *
 * The checks here are a first pass: the deletions and writes themselves run in the
 * sandbox's view (restore-room.ts), where a link swapped in after a check leads nowhere.
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { CHECKPOINT_FILE_MAX_BYTES } from '../../../shared/limits.js';
import { leftOutWhy, type LeftOutRecord } from './left-out.js';
import type { LeftOutReader } from './left-out-reader.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { restoreRoom, type Deletions } from './restore-room.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import { checkSnapshotId, checkWorkspacePath } from './store-input.js';

/** More paths than this are found in one whole listing rather than passed as pathspecs. */
const PATHSPEC_MAX = 500;
const PARALLEL = 64;

interface SnapshotEntries {
  files: Map<string, { mode: string; id: string }>;
  folders: Set<string>;
}

export async function restoreFiles(
  shadow: ShadowGit,
  records: LeftOutReader,
  snapshot: string,
  paths: readonly string[],
  /** Where the writes and deletions run (restore-room.ts); absent: as the app. */
  sandbox?: Sandbox,
): Promise<string[]> {
  checkSnapshotId(snapshot);
  const unique = [...new Set(paths.map(checkWorkspacePath))];
  if (unique.length === 0) return [];
  const root = shadow.workspaceRoot;
  const scratch = shadow.layout.tempFile('restore');
  // The room (the sandbox's view, restore-room.ts) is made while the snapshot is read.
  const rooming = restoreRoom(shadow, sandbox, { scratch, targets: unique });
  rooming.catch(() => {}); // awaited below, unless a step before throws
  const record = await records.read(snapshot);
  const entries = await snapshotEntries(shadow, snapshot, unique);
  const { write, remove, leftAlone } = await sortPaths(root, unique, record, entries);
  const deletions = await plannedDeletions(root, remove, entries.folders, write);
  if (deletions.files.length + deletions.folders.length === 0 && write.length === 0) return leftAlone;
  // Judged now, on the workspace as the deletions will leave it, so that the deletions and
  // the writes can run as one confined program.
  const blocked = await wayBlocked(root, write, deletions);
  await mkdir(scratch, { recursive: true });
  try {
    const room = await rooming;
    const indexFile = blocked || write.length === 0 ? null : await prepareIndex(shadow, entries, write, scratch);
    await room.apply(deletions, indexFile);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  if (blocked) throw new Error(blocked);
  return leftAlone;
}

/** Which paths are written, which deleted, which left alone (the snapshot left them out, or they are over the cap now). */
async function sortPaths(root: string, paths: string[], record: LeftOutRecord, entries: SnapshotEntries) {
  const capped = new Set<string>();
  await inBatches(paths, async (p) => {
    if (await overTheCap(root, p)) capped.add(p);
  });
  const sorted = { write: [] as string[], remove: [] as string[], leftAlone: [] as string[] };
  for (const p of paths) {
    if (leftOutWhy(record, p) || capped.has(p)) sorted.leftAlone.push(p);
    else (entries.files.has(p) ? sorted.write : sorted.remove).push(p);
  }
  return sorted;
}

/** The snapshot's files among these paths, and the folders on the way to them (all its folders, for many paths). */
async function snapshotEntries(shadow: ShadowGit, snapshot: string, paths: string[]): Promise<SnapshotEntries> {
  const { stdout } = await shadow.run({
    what: `list snapshot ${snapshot.slice(0, 12)}`,
    // Past PATHSPEC_MAX paths, one whole listing costs less than matching each against each.
    args: [
      'ls-tree',
      '-r',
      '-t',
      '-z',
      '--full-tree',
      snapshot,
      ...(paths.length <= PATHSPEC_MAX ? ['--', ...paths] : []),
    ],
    timeoutMs: LONG_TIMEOUT_MS,
  });
  const entries: SnapshotEntries = { files: new Map(), folders: new Set() };
  const wanted = new Set(paths);
  for (const line of stdout.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, id] = line.slice(0, tab).split(' ') as [string, string, string];
    const p = line.slice(tab + 1);
    if (type === 'tree') entries.folders.add(p);
    else if (type === 'blob' && wanted.has(p)) entries.files.set(p, { mode, id });
  }
  return entries;
}

async function overTheCap(root: string, p: string): Promise<boolean> {
  const st = await lstat(path.join(root, p)).catch(() => null);
  return st !== null && st.isFile() && st.size > CHECKPOINT_FILE_MAX_BYTES;
}

/** What stands at each folder on the way to the paths, each looked at once (lstat, never followed). */
class FolderKinds {
  private readonly seen = new Map<string, Promise<Stats | null>>();

  constructor(private readonly root: string) {}

  stat(rel: string): Promise<Stats | null> {
    let st = this.seen.get(rel);
    if (!st) {
      st = lstat(path.join(this.root, rel)).catch(() => null);
      this.seen.set(rel, st);
    }
    return st;
  }

  /** The folders on the way to p, from the top, when all are real folders; null otherwise. */
  async realFolders(p: string): Promise<string[] | null> {
    const folders = ancestors(p);
    const stats = await Promise.all(folders.map((f) => this.stat(f)));
    return stats.every((st) => st?.isDirectory()) ? folders : null;
  }
}

function ancestors(p: string): string[] {
  const parts = p.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/**
 * What to delete: the file or link at each path reached through real folders only (behind
 * a link or a file, git sees nothing there), never a folder; then, deepest first, the
 * folders this empties that the snapshot does not have, and any folder standing where a
 * file goes (each goes only if empty: an empty folder holds nothing to lose, and no
 * snapshot can hold it; one with anything in it stays, and checkWayIsClear refuses).
 */
async function plannedDeletions(
  root: string,
  remove: string[],
  snapshotFolders: ReadonlySet<string>,
  write: string[],
): Promise<Deletions> {
  const kinds = new FolderKinds(root);
  const files: string[] = [];
  const folders = new Set<string>();
  await inBatches(remove, async (p) => {
    const way = await kinds.realFolders(p);
    if (way === null) return;
    const full = path.join(root, p);
    if (!isInside(root, await realpath(path.dirname(full)))) return;
    const st = await lstat(full).catch(() => null);
    if (st === null || st.isDirectory()) return;
    files.push(p);
    for (const f of way) if (!snapshotFolders.has(f)) folders.add(f);
  });
  await inBatches(write, async (p) => {
    if ((await kinds.realFolders(p)) === null) return;
    if ((await lstat(path.join(root, p)).catch(() => null))?.isDirectory()) folders.add(p);
  });
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length);
  return { files, folders: deepestFirst };
}

/**
 * Why a path cannot be written once the deletions are done, or null: a file or link where
 * a folder on its way goes, or a folder (one that will not be emptied and go) where the
 * file goes. Git would delete what is in the way; the person may still want it.
 */
async function wayBlocked(root: string, paths: string[], deletions: Deletions): Promise<string | null> {
  const kinds = new FolderKinds(root);
  const gone = new Set(deletions.files);
  const goes = new FoldersThatGo(root, gone, new Set(deletions.folders));
  const why: string[] = [];
  await inBatches(paths, async (p) => {
    for (const rel of ancestors(p)) {
      const st = gone.has(rel) ? null : await kinds.stat(rel);
      if (st === null) break; // the rest of the way is made fresh
      if (!st.isDirectory()) {
        why.push(`cannot restore ${p}: ${rel} is a ${st.isSymbolicLink() ? 'link' : 'file'} now, not a folder`);
        return;
      }
    }
    const st = await lstat(path.join(root, p)).catch(() => null);
    if (st?.isDirectory() && !(await goes.goes(p))) why.push(`cannot restore ${p}: a folder is there now`);
  });
  return why.sort()[0] ?? null;
}

/** Whether a folder the deletions empty will be empty, so that its rmdir takes it: all it holds goes first. */
class FoldersThatGo {
  private readonly known = new Map<string, Promise<boolean>>();

  constructor(
    private readonly root: string,
    private readonly files: ReadonlySet<string>,
    private readonly folders: ReadonlySet<string>,
  ) {}

  goes(folder: string): Promise<boolean> {
    let answer = this.known.get(folder);
    if (!answer) {
      answer = this.folders.has(folder) ? this.allGo(folder) : Promise.resolve(false);
      this.known.set(folder, answer);
    }
    return answer;
  }

  private async allGo(folder: string): Promise<boolean> {
    const names = await readdir(path.join(this.root, folder)).catch(() => null);
    if (names === null) return false;
    for (const name of names) {
      const rel = `${folder}/${name}`;
      if (this.files.has(rel)) continue;
      const st = await lstat(path.join(this.root, rel)).catch(() => null);
      if (!st?.isDirectory() || !(await this.goes(rel))) return false;
    }
    return true;
  }
}

async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(work));
}

/** The temporary index that holds only the files to write, in the restore's scratch folder. */
async function prepareIndex(
  shadow: ShadowGit,
  entries: SnapshotEntries,
  paths: string[],
  scratch: string,
): Promise<string> {
  const indexFile = path.join(scratch, 'index');
  await shadow.run({
    what: 'prepare the files to restore',
    args: ['update-index', '-z', '--index-info'],
    indexFile,
    workTree: true,
    input: paths.map((p) => indexLine(p, entries)).join(''),
    locks: [`${indexFile}.lock`],
  });
  return indexFile;
}

function indexLine(p: string, entries: SnapshotEntries): string {
  const { mode, id } = entries.files.get(p) as { mode: string; id: string };
  return `${mode} ${id}\t${p}\0`;
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
