/**
 * Both sides of a diff cut into lines and interned: equal lines get equal small integer ids,
 * so the diff compares integers instead of strings. A line keeps its terminator, so "b\n" and
 * a final "b" without one are different lines, as they are for git.
 */

export interface LineTable {
  /** Lines of the old side, each with its "\n" if it has one. */
  oldLines: string[];
  newLines: string[];
  oldIds: Int32Array;
  newIds: Int32Array;
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

export function lineTable(oldText: string, newText: string): LineTable {
  const ids = new Map<string, number>();
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  return { oldLines, newLines, oldIds: internAll(oldLines, ids), newIds: internAll(newLines, ids) };
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
