/**
 * Makes some workspace paths match a snapshot, byte for byte with their mode. Paths the
 * snapshot has are written by `git checkout-index` from a temporary index holding only
 * them; the others are deleted here, one lstat'ed path at a time, never through a link and
 * never a folder. Two kinds of path are left alone and returned: one the snapshot left out
 * (too large, inside a nested repository), which it cannot bring back, and one whose file
 * now is over the size cap, which no snapshot holds, so nothing could bring it back after.
 *
 * Deletions go first (a turn that replaced a folder by a file is undone by deleting the
 * file, then writing the folder's files); a path whose way is still blocked after them (a
 * folder where the file goes, a file or link where a parent folder goes) is refused with
 * an Error before anything is written, rather than have git delete what is in the way.
 */
import { lstat, realpath, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CHECKPOINT_FILE_MAX_BYTES } from '../../../shared/limits.js';
import { leftOutWhy } from './left-out.js';
import type { LeftOutReader } from './left-out-reader.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import { checkSnapshotId, checkWorkspacePath } from './store-input.js';

const PATHSPEC_CHUNK = 500;

interface SnapshotEntries {
  files: Map<string, { mode: string; id: string }>;
  folders: Set<string>;
}

export async function restoreFiles(
  shadow: ShadowGit,
  records: LeftOutReader,
  snapshot: string,
  paths: readonly string[],
): Promise<string[]> {
  checkSnapshotId(snapshot);
  const unique = [...new Set(paths.map(checkWorkspacePath))];
  const record = await records.read(snapshot);
  const entries = await snapshotEntries(shadow, snapshot, unique);
  const leftAlone: string[] = [];
  const write: string[] = [];
  const remove: string[] = [];
  for (const p of unique) {
    if (leftOutWhy(record, p) || (await overTheCap(shadow.workspaceRoot, p))) leftAlone.push(p);
    else (entries.files.has(p) ? write : remove).push(p);
  }
  for (const p of remove) await removeSafely(shadow.workspaceRoot, p, entries.folders);
  for (const p of write) await checkWayIsClear(shadow.workspaceRoot, p);
  if (write.length > 0) await checkout(shadow, entries, write);
  return leftAlone;
}

/** The snapshot's files among these paths, and the folders on the way to them. */
async function snapshotEntries(shadow: ShadowGit, snapshot: string, paths: string[]): Promise<SnapshotEntries> {
  const entries: SnapshotEntries = { files: new Map(), folders: new Set() };
  const wanted = new Set(paths);
  for (let i = 0; i < paths.length; i += PATHSPEC_CHUNK) {
    const { stdout } = await shadow.run({
      what: `list snapshot ${snapshot.slice(0, 12)}`,
      args: ['ls-tree', '-r', '-t', '-z', '--full-tree', snapshot, '--', ...paths.slice(i, i + PATHSPEC_CHUNK)],
      timeoutMs: LONG_TIMEOUT_MS,
    });
    for (const line of stdout.toString('utf8').split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, id] = line.slice(0, tab).split(' ') as [string, string, string];
      const p = line.slice(tab + 1);
      if (type === 'tree') entries.folders.add(p);
      else if (type === 'blob' && wanted.has(p)) entries.files.set(p, { mode, id });
    }
  }
  return entries;
}

async function overTheCap(root: string, p: string): Promise<boolean> {
  const st = await lstat(path.join(root, p)).catch(() => null);
  return st !== null && st.isFile() && st.size > CHECKPOINT_FILE_MAX_BYTES;
}

/** Each folder on the way to p, from the top; null when the way is not all real folders. */
async function realFolders(root: string, p: string): Promise<string[] | null> {
  const parts = p.split('/').slice(0, -1);
  const folders: string[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const st = await lstat(path.join(root, rel)).catch(() => null);
    if (!st?.isDirectory()) return null;
    folders.push(rel);
  }
  return folders;
}

/** Deletes the file or link at p when it is reached through real folders only; then the emptied folders the snapshot lacks. */
async function removeSafely(root: string, p: string, snapshotFolders: ReadonlySet<string>): Promise<void> {
  const folders = await realFolders(root, p);
  if (folders === null) return; // behind a link or a file: git sees nothing at p
  const full = path.join(root, p);
  if (!isInside(root, await realpath(path.dirname(full)))) return;
  const st = await lstat(full).catch(() => null);
  if (st === null || st.isDirectory()) return; // a folder is never deleted whole
  await unlink(full);
  for (const folder of folders.reverse()) {
    if (snapshotFolders.has(folder)) return;
    const emptied = await rmdir(path.join(root, folder)).then(
      () => true,
      () => false,
    );
    if (!emptied) return;
  }
}

async function checkWayIsClear(root: string, p: string): Promise<void> {
  const parts = p.split('/');
  for (let i = 1; i < parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const st = await lstat(path.join(root, rel)).catch(() => null);
    if (st === null) return; // the rest of the way is made fresh
    if (!st.isDirectory()) {
      throw new Error(`cannot restore ${p}: ${rel} is a ${st.isSymbolicLink() ? 'link' : 'file'} now, not a folder`);
    }
  }
  if ((await lstat(path.join(root, p)).catch(() => null))?.isDirectory()) {
    throw new Error(`cannot restore ${p}: a folder is there now`);
  }
}

/** Writes the files through a temporary index that holds only them. */
async function checkout(shadow: ShadowGit, entries: SnapshotEntries, paths: string[]): Promise<void> {
  const indexFile = shadow.layout.tempFile('restore-index');
  const locks = [`${indexFile}.lock`];
  try {
    await shadow.run({
      what: 'prepare the files to restore',
      args: ['update-index', '-z', '--index-info'],
      indexFile,
      workTree: true,
      input: paths.map((p) => indexLine(p, entries)).join(''),
      locks,
    });
    await shadow.run({
      what: 'write the restored files',
      args: ['checkout-index', '--all', '--force'],
      indexFile,
      workTree: true,
      timeoutMs: LONG_TIMEOUT_MS,
      locks,
    });
  } finally {
    await rm(indexFile, { force: true });
    await rm(`${indexFile}.lock`, { force: true });
  }
}

function indexLine(p: string, entries: SnapshotEntries): string {
  const { mode, id } = entries.files.get(p) as { mode: string; id: string };
  return `${mode} ${id}\t${p}\0`;
}

function isInside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
