/**
 * Reading a file the agent or a prompt input depends on, safely: whatever sits at the
 * path (a FIFO, a device, a folder, a link swapped in, a file of gigabytes) must not hang
 * the caller or load unbounded bytes. Only a regular file is read, and only up to a cap.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import { readAt } from './byte-reads.js';
import type { ErrorKind } from '../error-kind.js';

/** Something is at the path, but it is not a regular file. Its message names the path and what it is. */
export class NotAFileError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'NotAFileError';
}

export interface OpenFile {
  handle: fs.FileHandle;
  stats: Stats;
}

export interface HeadRead {
  /** At most the cap's worth of bytes from the start of the file. */
  bytes: Buffer;
  /** True when the file holds more than the cap. */
  cut: boolean;
  /** The file's size when opened. */
  size: number;
}

/** The calls openRegularFile makes; a test passes its own to see what is (not) opened. */
export interface RegularFileFs {
  lstat(path: string): Promise<Stats>;
  open(path: string, flags: number): Promise<fs.FileHandle>;
}

/**
 * Opens the regular file at `real`, or returns null when nothing is there. `real` must be
 * an already-resolved path: a symbolic link found there now was swapped in since, and is
 * refused rather than followed. The caller closes the handle.
 *
 * Anything but a regular file is refused from an lstat, before it is opened: opening a
 * device can have effects of its own (a serial port resets the board on it), and opening
 * a FIFO releases a writer waiting on it.
 */
export async function openRegularFile(real: string, files: RegularFileFs = fs): Promise<OpenFile | null> {
  const seen = await lstatOrNull(real, files);
  if (seen === null) return null;
  refuseUnlessFile(real, seen);
  let handle: fs.FileHandle;
  try {
    // Still NOFOLLOW and NONBLOCK: the path may be swapped between the lstat and the open.
    // NONBLOCK keeps a FIFO put there meanwhile from waiting forever for a writer (and
    // holding a libuv thread while it does); it changes nothing for a regular file.
    handle = await files.open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw new NotAFileError(`${real} is a symbolic link`);
    throw err;
  }
  try {
    // fstat, not stat: it describes what was opened, whatever the path holds by now.
    const stats = await handle.stat();
    refuseUnlessFile(real, stats);
    if (!sameFile(stats, seen)) throw new NotAFileError(`${real} was replaced while it was being opened`);
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** True when both describe the same file (device and inode), whatever its name now. */
export function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

async function lstatOrNull(real: string, files: RegularFileFs): Promise<Stats | null> {
  try {
    return await files.lstat(real);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

function refuseUnlessFile(real: string, stats: Stats): void {
  if (stats.isSymbolicLink()) throw new NotAFileError(`${real} is a symbolic link`);
  if (stats.isDirectory()) throw new NotAFileError(`${real} is a folder`);
  if (!stats.isFile()) throw new NotAFileError(`${real} is not a regular file`);
}

/** Reads from the start of an open file, at most `maxBytes` of it. */
export async function readHead(file: OpenFile, maxBytes: number): Promise<HeadRead> {
  const size = file.stats.size;
  // The read is sized from the fstat, so a small file never costs a cap-sized buffer; one
  // byte past the cap tells "exactly the cap" from "more". A file being written meanwhile
  // reads as whatever was there, as any read of a changing file does.
  const read = await readAt(file.handle, 0, Math.min(size, maxBytes) + 1);
  const cut = read.length > maxBytes;
  return { bytes: cut ? read.subarray(0, maxBytes) : read, cut, size };
}

/** The first `maxBytes` of the regular file at `real` (see openRegularFile), or null when nothing is there. */
export async function readRegularFile(real: string, maxBytes: number): Promise<HeadRead | null> {
  const file = await openRegularFile(real);
  if (file === null) return null;
  try {
    return await readHead(file, maxBytes);
  } finally {
    await file.handle.close();
  }
}

/**
 * Whether an open file is the one at `real` now. O_NOFOLLOW guards only the last name: a
 * parent folder swapped for a link after `real` was resolved opens whatever that link
 * points at. On Linux the kernel's own name for the descriptor settles it in one call: it
 * is the path with every link resolved, and a file unlinked since reads "(deleted)".
 * Without /proc, `real` must still resolve to itself (no link put in along it) and name
 * the very file (device and inode) that was opened.
 */
export async function isOpenAt(file: OpenFile, real: string): Promise<boolean> {
  const named = await fs.readlink(`/proc/self/fd/${file.handle.fd}`).catch(() => null);
  if (named !== null) return named === real;
  const [still, now] = await Promise.all([fs.realpath(real).catch(() => null), fs.stat(real).catch(() => null)]);
  return still === real && now !== null && sameFile(now, file.stats);
}
