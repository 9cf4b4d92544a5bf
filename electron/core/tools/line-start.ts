/**
 * Finding where a 1-based line starts in a file, by scanning it in chunks: memory stays
 * at one chunk however long the file is.
 */
import type { promises as fs } from 'node:fs';
import { readAt } from '../paths/byte-reads.js';

const SCAN_CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export type LineStart = { found: true; offset: number } | { found: false; lineCount: number };

/**
 * The byte offset where `line` starts. Line 1 always starts at 0 (even in an empty file);
 * a later line exists only if at least one byte of it does.
 */
export async function findLineStart(handle: fs.FileHandle, size: number, line: number): Promise<LineStart> {
  let newlinesToSkip = line - 1;
  if (newlinesToSkip === 0) return { found: true, offset: 0 };
  let seen = 0;
  for (let position = 0; position < size; position += SCAN_CHUNK_BYTES) {
    const chunk = await readAt(handle, position, Math.min(SCAN_CHUNK_BYTES, size - position));
    for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) {
      seen++;
      if (--newlinesToSkip === 0) {
        const offset = position + i + 1;
        return offset < size ? { found: true, offset } : { found: false, lineCount: seen };
      }
    }
    if (chunk.length === 0) break;
  }
  return { found: false, lineCount: countLines(seen, size, await lastByte(handle, size)) };
}

function countLines(newlines: number, size: number, last: number | null): number {
  if (size === 0) return 0;
  return last === NEWLINE ? newlines : newlines + 1;
}

async function lastByte(handle: fs.FileHandle, size: number): Promise<number | null> {
  if (size === 0) return null;
  return (await readAt(handle, size - 1, 1))[0] ?? null;
}
