/**
 * Reading a file the agent or a prompt input depends on, safely: whatever sits at the
 * path (a FIFO, a device, a folder, a link swapped in, a file of gigabytes) must not hang
 * the caller or load unbounded bytes. Only a regular file is read, and only up to a cap.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import { readAt } from './byte-reads.js';

/** Something is at the path, but it is not a regular file. Its message names the path and what it is. */
export class NotAFileError extends Error {
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

/**
 * Opens the regular file at `real`, or returns null when nothing is there. `real` must be
 * an already-resolved path: a symbolic link found there now was swapped in since, and is
 * refused rather than followed. The caller closes the handle.
 */
export async function openRegularFile(real: string): Promise<OpenFile | null> {
  let handle: fs.FileHandle;
  try {
    // NONBLOCK: opening a FIFO with no writer would otherwise wait forever (and hold a
    // libuv thread while it does). It changes nothing for a regular file.
    handle = await fs.open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw new NotAFileError(`${real} is a symbolic link`);
    throw err;
  }
  try {
    // fstat, not stat: it describes what was opened, whatever the path holds by now.
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new NotAFileError(`${real} is a folder`);
    if (!stats.isFile()) throw new NotAFileError(`${real} is not a regular file`);
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
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
