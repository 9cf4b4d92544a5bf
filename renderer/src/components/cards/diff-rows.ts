/**
 * The rows a card's diff view shows, from diff2html's parser (its structure, not its HTML:
 * DESIGN.md, Known traps). Parsed once per card id, since the same card renders pinned,
 * in the transcript and again on every store update.
 */
import { parse } from 'diff2html/lib-esm/diff-parser';

export interface LineRow {
  kind: 'line';
  type: 'insert' | 'delete' | 'context';
  oldNumber?: number;
  newNumber?: number;
  /** "+", "-" or " ": shown, so a change is never marked by colour alone. */
  prefix: string;
  text: string;
  /** The file's last line, without a final newline ("\ No newline at end of file"). */
  noNewline: boolean;
}

export interface HunkRow {
  kind: 'hunk';
  header: string;
}

export type UnifiedRow = HunkRow | LineRow;
export type SplitRow = HunkRow | { kind: 'pair'; left: LineRow | null; right: LineRow | null };

export interface DiffRows {
  unified: UnifiedRow[];
  split: SplitRow[];
  added: number;
  deleted: number;
}

const CACHE_SIZE = 32;
const cache = new Map<string, { diff: string; rows: DiffRows }>();

/**
 * `key` is the card id: a card's diff never changes, a changed file gets a new card. The
 * diff of a card being edited does change (its key is "<card id>:edited"), so a hit counts
 * only for the same text.
 */
export function diffRowsFor(key: string, diff: string): DiffRows {
  const hit = cache.get(key);
  if (hit && hit.diff === diff) return hit.rows;
  const rows = buildRows(diff);
  cache.delete(key);
  cache.set(key, { diff, rows });
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return rows;
}

export function buildRows(diff: string): DiffRows {
  const noNewline = linesWithoutNewline(diff);
  const unified: UnifiedRow[] = [];
  let added = 0;
  let deleted = 0;
  let ordinal = 0;
  for (const file of parse(diff)) {
    for (const block of file.blocks) {
      unified.push({ kind: 'hunk', header: block.header });
      for (const line of block.lines) {
        const type = line.type as LineRow['type'];
        if (type === 'insert') added += 1;
        if (type === 'delete') deleted += 1;
        unified.push({
          kind: 'line',
          type,
          oldNumber: line.oldNumber,
          newNumber: line.newNumber,
          prefix: line.content.slice(0, 1),
          text: line.content.slice(1),
          noNewline: noNewline.has(ordinal),
        });
        ordinal += 1;
      }
    }
  }
  return { unified, split: pairUp(unified), added, deleted };
}

/**
 * diff2html drops "\ No newline at end of file", so a change that only removes the final
 * newline would show two identical lines. Its parser makes one line per "+", "-" or " "
 * line after the first hunk header, so counting those finds the lines the marker follows.
 */
function linesWithoutNewline(diff: string): Set<number> {
  const found = new Set<number>();
  let inHunks = false;
  let ordinal = 0;
  for (const raw of diff.split('\n')) {
    if (raw.startsWith('@@')) inHunks = true;
    else if (!inHunks) continue;
    else if (raw.startsWith('\\')) found.add(ordinal - 1);
    else if (raw.startsWith('+') || raw.startsWith('-') || raw.startsWith(' ')) ordinal += 1;
  }
  return found;
}

/** Side by side: a run of deletions faces the insertions that follow it, line by line. */
function pairUp(unified: UnifiedRow[]): SplitRow[] {
  const split: SplitRow[] = [];
  let deletes: LineRow[] = [];
  let inserts: LineRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(deletes.length, inserts.length); i++) {
      split.push({ kind: 'pair', left: deletes[i] ?? null, right: inserts[i] ?? null });
    }
    deletes = [];
    inserts = [];
  };
  for (const row of unified) {
    if (row.kind === 'line' && row.type === 'delete') {
      if (inserts.length > 0) flush();
      deletes.push(row);
    } else if (row.kind === 'line' && row.type === 'insert') {
      inserts.push(row);
    } else {
      flush();
      split.push(row.kind === 'hunk' ? row : { kind: 'pair', left: row, right: row });
    }
  }
  flush();
  return split;
}
