import { BINARY_SNIFF_BYTES, DIFF_CONTEXT_LINES } from '../../../shared/limits.js';
/**
 * The unified diff (3 lines of context) of the bytes on disk against a proposal, whole,
 * with the notes a reader needs when it is empty or not the plain minimal diff.
 */
import { hunkRanges } from './hunk-ranges.js';
import { lineDiff } from './line-diff.js';
import { lineTable } from './line-table.js';
import { unifiedLines } from './unified-text.js';

export interface DiffSides {
  /** The path the write lands on, as the headers name it. */
  path: string;
  /** The bytes on disk, or null when the file does not exist yet. */
  before: Buffer | null;
  after: Buffer;
}

export interface UnifiedDiff {
  /** One string per diff line, each ending in "\n"; empty when there is nothing to show. */
  lines: string[];
  notes: string[];
  /** True when the exact diff ran out of budget and the changed region is one replacement. */
  simplified: boolean;
}

export const NOTES = {
  identical: 'No change: the proposal is identical to the file on disk.',
  emptyCreate: 'Creates an empty file.',
  binary: 'Binary content (a NUL byte near the start): no text diff is shown.',
  invisible: 'The change is not visible as text: it only touches bytes that are not valid UTF-8.',
  simplified:
    'Simplified diff: the changes were too scattered to line up within the time allowed, so the changed region is shown as one replacement.',
  crlfToLf: 'Line endings change from CRLF to LF: lines that look unchanged differ in their line ending.',
  lfToCrlf: 'Line endings change from LF to CRLF: lines that look unchanged differ in their line ending.',
} as const;

/** `budget` bounds the work of the exact diff (see EXACT_DIFF_BUDGET). */
export function unifiedDiff(sides: DiffSides, budget?: number): UnifiedDiff {
  const before = sides.before ?? Buffer.alloc(0);
  if (sides.before?.equals(sides.after)) return nothingToShow(NOTES.identical);
  if (sides.before === null && sides.after.length === 0) return nothingToShow(NOTES.emptyCreate);
  if (looksBinary(before) || looksBinary(sides.after)) return nothingToShow(NOTES.binary);

  const oldText = before.toString('utf8');
  const newText = sides.after.toString('utf8');
  const table = lineTable(oldText, newText);
  const { flags, simplified } = lineDiff(table, budget);
  const hunks = hunkRanges(flags, DIFF_CONTEXT_LINES);
  if (hunks.length === 0) return nothingToShow(NOTES.invisible);

  const lines = unifiedLines({ path: sides.path, creates: sides.before === null, ...table, flags }, hunks);
  const notes = [simplified ? NOTES.simplified : undefined, lineEndingNote(oldText, newText)];
  return { lines, notes: notes.filter((n) => n !== undefined), simplified };
}

function nothingToShow(note: string): UnifiedDiff {
  return { lines: [], notes: [note], simplified: false };
}

/** Same rule as the tools' binary refusal, and git's: a NUL byte in the first 8 KiB. */
function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * diff2html (and most viewers) hide a trailing "\r", so a file converted between CRLF and
 * LF would show every line removed and re-added unchanged. Say so in words.
 */
function lineEndingNote(oldText: string, newText: string): string | undefined {
  const was = lineEnding(oldText);
  const now = lineEnding(newText);
  if (was === 'crlf' && now === 'lf') return NOTES.crlfToLf;
  if (was === 'lf' && now === 'crlf') return NOTES.lfToCrlf;
  return undefined;
}

/** The ending most lines use, or undefined for text without a line break. */
function lineEnding(text: string): 'crlf' | 'lf' | undefined {
  const newlines = countOf(text, '\n');
  if (newlines === 0) return undefined;
  return countOf(text, '\r\n') * 2 > newlines ? 'crlf' : 'lf';
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
