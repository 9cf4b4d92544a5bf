/**
 * Both sides of a diff cut into lines and interned: equal lines get equal small integer ids,
 * so the diff compares integers instead of strings. A line keeps its terminator, so "b\n" and
 * a final "b" without one are different lines, as they are for git.
 *
 * Lines are equal only when their keys are. For text that is valid UTF-8 the key is the text
 * itself (UTF-8 decodes one to one). Bytes that are not valid UTF-8 are keyed one char per
 * byte (latin1), and `shown` decodes a line for display: two different invalid bytes (a
 * Latin-1 "é", and the U+FFFD a model wrote back after reading it) would both decode to
 * U+FFFD and compare equal, hiding the change. "\n" is one byte that no UTF-8 sequence
 * contains, so decoding line by line shows what decoding the whole side would.
 */

export interface LineTable {
  /** Lines of the old side as shown, each with its "\n" if it has one. */
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

/** `shown` is given only for sides keyed by their bytes (not valid UTF-8). */
export function lineTable(before: string, after: string, shown?: (key: string) => string): LineTable {
  const ids = new Map<string, number>();
  const oldKeys = splitLines(before);
  const newKeys = splitLines(after);
  return {
    oldLines: shown ? oldKeys.map(shown) : oldKeys,
    newLines: shown ? newKeys.map(shown) : newKeys,
    oldIds: internAll(oldKeys, ids),
    newIds: internAll(newKeys, ids),
    validUtf8: shown === undefined,
  };
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
