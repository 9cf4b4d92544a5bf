/**
 * Reading and writing the person's files for a review and an apply (SPEC §15). Apply is the
 * one moment the app writes into the person's folder for a place, so it writes as the gate
 * does: never through a link (a folder on the way that is a link is refused, not followed),
 * never into `.git`, a whole file or nothing (a temporary file in the same folder, renamed
 * over the target; not fsynced, see apply-files.ts), the mode kept. A digest is of a regular
 * file only; anything else at the path reads as "other", which matches no digest, so it is
 * never overwritten.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { NotAFileError } from '../paths/regular-file.js';

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
 *
 * Here and below the calls are synchronous: a file costs a dozen short system calls, and
 * each through the thread pool made an apply ten times slower than `git apply`. An apply
 * yields between files (apply-files.ts), so the event loop waits for one file at most.
 */
function parentOf(root: string, rel: string, make: boolean): string | null {
  let dir = root;
  for (const part of rel.split('/').slice(0, -1)) {
    dir = path.join(dir, part);
    const st = lstatOrNull(dir);
    if (st === null) {
      if (!make) return null;
      fs.mkdirSync(dir);
      continue;
    }
    if (st.isSymbolicLink())
      throw new NotAFileError(`${path.relative(root, dir)} is a link, which Apply never writes through`);
    if (!st.isDirectory()) throw new NotAFileError(`${path.relative(root, dir)} is not a folder`);
  }
  return dir;
}

function lstatOrNull(p: string): fs.Stats | null {
  // No error made and thrown for a missing path: most reads of a new file's folders find none.
  return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
}

/**
 * A regular file's bytes and mode under `root`, null when absent; throws NotAFileError for
 * anything else. As paths/regular-file.ts reads: refused from an lstat before it is opened
 * (opening a FIFO or a device has effects), opened with O_NOFOLLOW and O_NONBLOCK, and the
 * opened file checked to be the one seen.
 */
export async function readUnder(root: string, rel: string): Promise<FileBytes | null> {
  return readUnderNow(root, rel);
}

function readUnderNow(root: string, rel: string): FileBytes | null {
  return readWithFolder(root, rel).file;
}

/**
 * The same, with the folder it checked (null when a folder on the way is missing): an
 * apply writes the file into that folder next, without walking the path again.
 */
export function readWithFolder(root: string, rel: string): { dir: string | null; file: FileBytes | null } {
  const dir = parentOf(root, rel, false);
  return { dir, file: dir === null ? null : readFileIn(dir, rel) };
}

/**
 * The place's file at `rel`, its folders not checked: Apply writes its bytes only when
 * their digest is the one the person reviewed, so a link swapped in on the way can bring
 * in nothing else. The file itself is still never a FIFO or a device.
 */
export async function readPlaceFile(placeDir: string, rel: string): Promise<FileBytes | null> {
  return readFileIn(path.join(placeDir, path.dirname(rel)), rel);
}

function readFileIn(dir: string, rel: string): FileBytes | null {
  const file = path.join(dir, path.basename(rel));
  const seen = lstatOrNull(file);
  if (seen === null) return null;
  if (!seen.isFile()) throw new NotAFileError(`${rel} is not a regular file`);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new NotAFileError(`${rel} is a link`);
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.ino !== seen.ino || st.dev !== seen.dev)
      throw new NotAFileError(`${rel} was replaced while it was read`);
    return { bytes: readAll(fd, st.size), mode: st.mode & 0o7777 };
  } finally {
    fs.closeSync(fd);
  }
}

/** The whole file from its size (one read for most), on to its end if it grew meanwhile. */
function readAll(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let want = Math.max(size + 1, 64);
  for (;;) {
    const buf = Buffer.allocUnsafe(want);
    const n = fs.readSync(fd, buf, 0, want, null);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    if (n < want) break;
    want = 64 * 1024;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** The digest of the file at `rel` under `root`: its SHA-256, ABSENT, or NOT_A_FILE. */
export async function digestUnder(root: string, rel: string): Promise<string> {
  try {
    const file = readUnderNow(root, rel);
    return file === null ? ABSENT : sha256(file.bytes);
  } catch (err) {
    if (err instanceof NotAFileError) return NOT_A_FILE;
    throw err;
  }
}

/**
 * Replaces (or makes) the file at `rel` under `root` with `bytes`, whole or not at all.
 * `dir`: its folder as a read just checked it (readWithFolder), else checked (and made) here.
 */
export async function writeUnder(
  root: string,
  rel: string,
  bytes: Buffer,
  mode: number,
  dir: string = parentOf(root, rel, true)!,
): Promise<void> {
  const target = path.join(dir, path.basename(rel));
  const temp = path.join(dir, `.${path.basename(rel)}.gatehouse-${tempSuffix()}`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      fs.writeFileSync(fd, bytes);
      fs.fchmodSync(fd, mode & 0o7777);
    } finally {
      fs.closeSync(fd);
    }
    // The target may have become a folder or a link since it was read: rename would replace a
    // link itself (never what it points at), and fails on a folder.
    fs.renameSync(temp, target);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Eight hex digits for a temporary file's name: a random start, then counted, since drawing
 * random bytes for each file was a twentieth of an apply. O_EXCL refuses a name in use.
 */
let tempCount = randomBytes(4).readUInt32BE(0);
function tempSuffix(): string {
  tempCount = (tempCount + 1) >>> 0;
  return tempCount.toString(16).padStart(8, '0');
}

/** Deletes the regular file at `rel` under `root` (a missing one is fine). */
export async function deleteUnder(root: string, rel: string): Promise<void> {
  const dir = parentOf(root, rel, false);
  if (dir === null) return;
  const target = path.join(dir, path.basename(rel));
  const st = lstatOrNull(target);
  if (st === null) return;
  if (!st.isFile()) throw new NotAFileError(`${rel} is not a regular file`);
  fs.unlinkSync(target);
}
