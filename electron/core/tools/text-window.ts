import { READ_MAX_BYTES } from '../../../shared/limits.js';
/**
 * One read_file window: at most READ_MAX_BYTES of a file, never ending (or starting)
 * inside a UTF-8 character, with where the next window starts when there is more. Pure:
 * the caller reads the bytes, so it can overlap that read with others.
 */
import { leadingContinuationBytes, wholeCharLength } from '../text/utf8-boundary.js';

export type NextWindow = { offset: number } | { line: number };

export interface TextWindow {
  text: string;
  /** Byte offset of the first byte shown. */
  start: number;
  /** Byte offset just after the last byte shown. */
  end: number;
  /** Line-mode only: the first and last line shown, whole. */
  lines?: { first: number; last: number };
  /** Where to continue; absent when the window reaches the end of the file. */
  next?: NextWindow;
}

/** The bytes a window at `start` needs: READ_MAX_BYTES, or up to the end of the file. */
export function windowLength(size: number, start: number): number {
  return Math.max(0, Math.min(READ_MAX_BYTES, size - start));
}

/**
 * From a byte offset, given the window's bytes (`raw`, read at `offset`). An offset
 * inside a character moves forward to the next whole one.
 */
export function windowFromOffset(raw: Buffer, size: number, offset: number): TextWindow {
  const skip = offset > 0 ? leadingContinuationBytes(raw) : 0;
  const reachesEnd = offset + raw.length >= size;
  const body = raw.subarray(skip);
  const kept = reachesEnd ? body : body.subarray(0, wholeCharLength(body));
  const start = offset + skip;
  const end = start + kept.length;
  return { text: kept.toString('utf8'), start, end, ...(end < size ? { next: { offset: end } } : {}) };
}

/**
 * From the start of `line` (at byte `start`), given the window's bytes: whole lines only.
 * A single line longer than the window is cut at a character boundary and the next
 * window is given as an offset.
 */
export function windowFromLine(raw: Buffer, size: number, line: number, start: number): TextWindow {
  if (start + raw.length >= size) return lineWindow(raw, line, start, false);
  const lastNewline = raw.lastIndexOf(0x0a);
  if (lastNewline !== -1) return lineWindow(raw.subarray(0, lastNewline + 1), line, start, true);
  const kept = raw.subarray(0, wholeCharLength(raw));
  const end = start + kept.length;
  return { text: kept.toString('utf8'), start, end, next: { offset: end } };
}

function lineWindow(bytes: Buffer, line: number, start: number, more: boolean): TextWindow {
  const newlines = countNewlines(bytes);
  const endsWithNewline = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a;
  const shownLines = endsWithNewline ? newlines : newlines + 1;
  const window: TextWindow = { text: bytes.toString('utf8'), start, end: start + bytes.length };
  if (bytes.length > 0) window.lines = { first: line, last: line + shownLines - 1 };
  if (more) window.next = { line: line + newlines };
  return window;
}

function countNewlines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}
