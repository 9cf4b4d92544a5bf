/**
 * A line diff of two small texts (what an MCP tool said before and says now: its
 * description, its input schema as JSON), from jsdiff. Whole-text context: these are short,
 * and the person should read the new text whole. Bounded like a write card's diff: at most
 * DIFF_TRUNCATED_LINES rows, and a time limit, past which it says so instead of diffing.
 */
import { diffLines } from 'diff';
import { DIFF_TRUNCATED_LINES, DIFF_WHOLE_MAX_BYTES } from '../../../../shared/limits';

export interface LineDiffRow {
  type: 'insert' | 'delete' | 'context';
  text: string;
}

export type ToolTextDiff =
  | {
      kind: 'diff';
      rows: LineDiffRow[];
      /** Rows past the cap, not shown. */
      hiddenRows: number;
      added: number;
      deleted: number;
    }
  /** Too large or too different to diff within bounds: shown as the two texts instead. */
  | { kind: 'too_big' };

/** jsdiff gives up (returns undefined) past this: a pathological pair never freezes the card. */
const DIFF_TIMEOUT_MS = 250;

export function toolTextDiff(before: string, after: string, maxRows = DIFF_TRUNCATED_LINES): ToolTextDiff {
  if (before.length + after.length > 2 * DIFF_WHOLE_MAX_BYTES) return { kind: 'too_big' };
  // A final newline on both, so a last line is never shown as changed for lacking one.
  const changes = diffLines(withNewline(before), withNewline(after), { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return { kind: 'too_big' };
  const rows: LineDiffRow[] = [];
  let added = 0;
  let deleted = 0;
  let total = 0;
  for (const change of changes) {
    const type = change.added ? 'insert' : change.removed ? 'delete' : 'context';
    const lines = change.value.slice(0, -1).split('\n');
    if (type === 'insert') added += lines.length;
    if (type === 'delete') deleted += lines.length;
    for (const text of lines) {
      total += 1;
      if (rows.length < maxRows) rows.push({ type, text });
    }
  }
  return { kind: 'diff', rows, hiddenRows: total - rows.length, added, deleted };
}

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** A JSON value as the card shows it: two-space indents, keys sorted, so a reordering is not a change. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) ?? String(value);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
