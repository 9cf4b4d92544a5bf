/**
 * Both sides of a diff cut into lines and interned: equal lines get equal small integer ids,
 * so the diff compares integers instead of strings. A line keeps its terminator, so "b\n" and
 * a final "b" without one are different lines, as they are for git.
 *
 * Lines are equal only when their bytes are. Valid UTF-8 decodes one to one, so there the
 * text is the key. Otherwise two different invalid bytes (a Latin-1 "é", and the U+FFFD a
 * model wrote back after reading it) would both decode to U+FFFD and compare equal, hiding
 * the change; so lines are keyed by their bytes (latin1 maps each byte to one char) and
 * decoded as UTF-8 only for display.
 */
import { isUtf8 } from 'node:buffer';

export interface LineTable {
  /** Lines of the old side as shown (decoded as UTF-8), each with its "\n" if it has one. */
  oldLines: string[];
  newLines: string[];
  oldIds: Int32Array;
  newIds: Int32Array;
  /** False when either side holds bytes that are not valid UTF-8, so a shown line may hide a difference. */
  validUtf8: boolean;
}

export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const next = end === -1 ? text.length : end + 1;
    lines.push(text.slice(start, next));
    start = next;
  }
  return lines;
}

export function lineTable(before: Buffer, after: Buffer): LineTable {
  const ids = new Map<string, number>();
  if (isUtf8(before) && isUtf8(after)) {
    const oldLines = splitLines(before.toString('utf8'));
    const newLines = splitLines(after.toString('utf8'));
    return { oldLines, newLines, oldIds: internAll(oldLines, ids), newIds: internAll(newLines, ids), validUtf8: true };
  }
  // "\n" is one byte that no UTF-8 sequence contains, so decoding line by line shows what
  // decoding the whole side would.
  const oldKeys = splitLines(before.toString('latin1'));
  const newKeys = splitLines(after.toString('latin1'));
  return {
    oldLines: oldKeys.map(shownLine),
    newLines: newKeys.map(shownLine),
    oldIds: internAll(oldKeys, ids),
    newIds: internAll(newKeys, ids),
    validUtf8: false,
  };
}

function shownLine(bytesAsLatin1: string): string {
  return Buffer.from(bytesAsLatin1, 'latin1').toString('utf8');
}

function internAll(lines: string[], ids: Map<string, number>): Int32Array {
  const out = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    out[i] = id;
  }
  return out;
}
