/**
 * Positioned reads through an open file handle, so a window of a huge file is read
 * without loading the file.
 */
import type { promises as fs } from 'node:fs';

/** Reads up to `length` bytes at `position`; fewer only at end of file. */
export async function readAt(handle: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}
