/**
 * Reading and writing the person's files for a review and an apply (SPEC §15). Apply is the
 * one moment the app writes into the person's folder for a place, so it writes as the gate
 * does: never through a link (a folder on the way that is a link is refused, not followed),
 * never into `.git`, a whole file or nothing (a temporary file in the same folder, fsynced,
 * renamed over the target), the mode kept. A digest is of a regular file only; anything else
 * at the path reads as "other", which matches no digest, so it is never overwritten.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { syncDir } from '../files/atomic-file.js';
import { NotAFileError, openRegularFile } from '../paths/regular-file.js';

/** The digest of a path where nothing is. */
export const ABSENT = 'absent';
/** The digest of something that is not a regular file (a folder, a link, a FIFO): matches nothing. */
export const NOT_A_FILE = 'other';

/** A file's bytes and mode, or null when nothing is there. */
export interface FileBytes {
  bytes: Buffer;
  mode: number;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A relative path a place may apply: forward slashes, no `..`, no `.git`, no NUL. */
export function checkRelative(rel: string): string | null {
  if (rel.length === 0 || rel.includes('\0') || rel.startsWith('/') || rel.includes('\\')) return 'not a relative path';
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return 'not a plain relative path';
  if (parts.some((p) => p.toLowerCase() === '.git')) return 'inside .git, which Apply never writes';
  return null;
}

/**
 * The folders between `root` and `rel`'s file, each checked to be a real folder (a link is
 * refused). Missing ones are made when `make`; otherwise a missing one means the file is absent.
 */
async function parentOf(root: string, rel: string, make: boolean): Promise<string | null> {
  let dir = root;
  for (const part of rel.split('/').slice(0, -1)) {
    dir = path.join(dir, part);
    const st = await fs.lstat(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (st === null) {
      if (!make) return null;
      await fs.mkdir(dir);
      continue;
    }
    if (st.isSymbolicLink())
      throw new NotAFileError(`${path.relative(root, dir)} is a link, which Apply never writes through`);
    if (!st.isDirectory()) throw new NotAFileError(`${path.relative(root, dir)} is not a folder`);
  }
  return dir;
}

/** A regular file's bytes and mode under `root`, null when absent; throws NotAFileError for anything else. */
export async function readUnder(root: string, rel: string): Promise<FileBytes | null> {
  const dir = await parentOf(root, rel, false);
  if (dir === null) return null;
  const opened = await openRegularFile(path.join(dir, path.basename(rel)));
  if (opened === null) return null;
  try {
    return { bytes: await opened.handle.readFile(), mode: opened.stats.mode & 0o7777 };
  } finally {
    await opened.handle.close();
  }
}

/** The digest of the file at `rel` under `root`: its SHA-256, ABSENT, or NOT_A_FILE. */
export async function digestUnder(root: string, rel: string): Promise<string> {
  try {
    const file = await readUnder(root, rel);
    return file === null ? ABSENT : sha256(file.bytes);
  } catch (err) {
    if (err instanceof NotAFileError) return NOT_A_FILE;
    throw err;
  }
}

/** Replaces (or makes) the file at `rel` under `root` with `bytes`, whole or not at all. */
export async function writeUnder(root: string, rel: string, bytes: Buffer, mode: number): Promise<void> {
  const dir = (await parentOf(root, rel, true))!;
  const target = path.join(dir, path.basename(rel));
  const temp = path.join(dir, `.${path.basename(rel)}.gatehouse-${randomBytes(4).toString('hex')}`);
  const handle = await fs.open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    try {
      await handle.writeFile(bytes);
      await handle.chmod(mode & 0o7777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The target may have become a folder or a link since it was read: rename would replace a
    // link itself (never what it points at), and fails on a folder.
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** Deletes the regular file at `rel` under `root` (a missing one is fine). */
export async function deleteUnder(root: string, rel: string): Promise<void> {
  const dir = await parentOf(root, rel, false);
  if (dir === null) return;
  const target = path.join(dir, path.basename(rel));
  const st = await fs.lstat(target).catch(() => null);
  if (st === null) return;
  if (!st.isFile()) throw new NotAFileError(`${rel} is not a regular file`);
  await fs.unlink(target);
  await syncDir(dir);
}
