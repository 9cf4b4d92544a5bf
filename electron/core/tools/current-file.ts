/**
 * What is on disk at a write's target right now: the bytes the digest covers, and the
 * mode and owner a replacement keeps.
 */
import { constants, promises as fs } from 'node:fs';

export interface CurrentFile {
  bytes: Buffer;
  /** Permission bits (with setuid/setgid/sticky), kept by the replacement. */
  mode: number;
  uid: number;
  gid: number;
}

/** Something is at the path, but it is not a regular file a write may replace. */
export class NotAFileError extends Error {
  override readonly name = 'NotAFileError';
}

/** The regular file at `real`, or null when nothing is there. */
export async function readCurrentFile(real: string): Promise<CurrentFile | null> {
  let handle: fs.FileHandle;
  try {
    // NONBLOCK so a FIFO cannot hang the open; NOFOLLOW because `real` is already resolved.
    handle = await fs.open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw new NotAFileError(`${real} is a symbolic link`);
    throw err;
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new NotAFileError(`${real} is a folder`);
    if (!st.isFile()) throw new NotAFileError(`${real} is not a regular file`);
    return { bytes: await handle.readFile(), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  } finally {
    await handle.close();
  }
}
