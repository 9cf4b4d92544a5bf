/**
 * What is on disk at a write's target right now: the bytes the digest covers, and the
 * mode and owner a replacement keeps.
 */
import { openRegularFile, readHead } from '../paths/regular-file.js';
import type { ErrorKind } from '../error-kind.js';

export interface CurrentFile {
  bytes: Buffer;
  /** Permission bits (with setuid/setgid/sticky), kept by the replacement. */
  mode: number;
  uid: number;
  gid: number;
}

/** The file is larger than a write may replace; nothing of it was loaded. */
export class FileTooLargeError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'FileTooLargeError';
  constructor(
    readonly real: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${real} is ${size} bytes; a file is replaced only up to ${maxBytes} bytes`);
  }
}

/**
 * The regular file at `real` (already resolved), or null when nothing is there. Anything
 * else there is a NotAFileError; a file over `maxBytes` is refused from its fstat, before
 * any of it is read.
 */
export async function readCurrentFile(real: string, maxBytes: number): Promise<CurrentFile | null> {
  const file = await openRegularFile(real);
  if (file === null) return null;
  try {
    const { stats } = file;
    if (stats.size > maxBytes) throw new FileTooLargeError(real, stats.size, maxBytes);
    const head = await readHead(file, maxBytes);
    // It grew past the limit between the fstat and the read.
    if (head.cut) throw new FileTooLargeError(real, (await file.handle.stat()).size, maxBytes);
    return { bytes: head.bytes, mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
  } finally {
    await file.handle.close();
  }
}
