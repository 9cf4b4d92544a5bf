import { BINARY_SNIFF_BYTES, DIFF_CONTEXT_LINES } from '../limits.js';
/**
 * The unified diff (3 lines of context) of the file on disk against a proposal, whole, with
 * the notes a reader needs when it is empty or not the plain minimal diff. It works on text,
 * so the core (from bytes, electron/core/diff) and the window (from the person's text as
 * they edit a card) build the same diff with one algorithm.
 */
import { hunkRanges } from './hunk-ranges.js';
import { lineDiff } from './line-diff.js';
import { lineTable } from './line-table.js';
import { unifiedLines } from './unified-text.js';
import { utf8Length } from './utf8.js';
import type { BreaksSeen } from './visible-breaks.js';

export interface TextSides {
  /** The path the write lands on, with forward slashes, as the headers name it. */
  path: string;
  /** The file on disk, or null when it does not exist yet. */
  before: string | null;
  after: string;
  /**
   * Set only for sides that are not both valid UTF-8: then before and after hold their bytes
   * one char each (latin1), and this decodes a line of them for display (see line-table.ts).
   */
  shown?: (key: string) => string;
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
  invalidUtf8:
    'The file or the proposal holds bytes that are not valid UTF-8, shown as �: lines may differ in bytes that cannot be shown.',
  loneCr:
    'The diff contains carriage returns not followed by a newline, shown as ␍: a viewer would start a new line there.',
  otherBreaks:
    'The diff contains characters a viewer could show as a line break, shown as symbols: vertical tab as ␋, form feed as ␌, and NEL, LS and PS as ⟨U+0085⟩, ⟨U+2028⟩ and ⟨U+2029⟩.',
  simplified:
    'Simplified diff: the changes were too scattered to line up within the time allowed, so the changed region is shown as one replacement.',
  crlfToLf: 'Line endings change from CRLF to LF: lines that look unchanged differ in their line ending.',
  lfToCrlf: 'Line endings change from LF to CRLF: lines that look unchanged differ in their line ending.',
} as const;

/** `budget` bounds the work of the exact diff (see EXACT_DIFF_BUDGET). */
export function unifiedDiff(sides: TextSides, budget?: number): UnifiedDiff {
  const before = sides.before ?? '';
  // Keys decode one to one, so equal keys are equal bytes.
  if (sides.before === sides.after) return nothingToShow(NOTES.identical);
  if (sides.before === null && sides.after === '') return nothingToShow(NOTES.emptyCreate);
  // Defence in depth: write_file and search_replace refuse binary content before a card.
  const bytesKeyed = sides.shown !== undefined;
  if (looksBinary(before, bytesKeyed) || looksBinary(sides.after, bytesKeyed)) return nothingToShow(NOTES.binary);

  // Lines compare by their exact bytes, so unequal sides always give at least one hunk.
  const table = lineTable(before, sides.after, sides.shown);
  const { flags, simplified } = lineDiff(table, budget);
  const hunks = hunkRanges(flags, DIFF_CONTEXT_LINES);
  const { lines, breaks } = unifiedLines({ path: sides.path, creates: sides.before === null, ...table, flags }, hunks);
  const notes = [
    simplified ? NOTES.simplified : undefined,
    lineEndingNote(before, sides.after),
    table.validUtf8 ? undefined : NOTES.invalidUtf8,
    ...breakNotes(breaks),
  ];
  return { lines, notes: notes.filter((n) => n !== undefined), simplified };
}

function breakNotes(breaks: BreaksSeen): string[] {
  return [breaks.loneCr ? NOTES.loneCr : undefined, breaks.other ? NOTES.otherBreaks : undefined].filter(
    (n) => n !== undefined,
  );
}

function nothingToShow(note: string): UnifiedDiff {
  return { lines: [], notes: [note], simplified: false };
}

/**
 * Same rule as the tools' binary refusal, and git's: a NUL byte in the first 8 KiB. A char
 * takes at least one byte, so a NUL at char BINARY_SNIFF_BYTES or later is past them.
 */
function looksBinary(text: string, bytesKeyed: boolean): boolean {
  const nul = text.indexOf('\0');
  if (nul === -1 || nul >= BINARY_SNIFF_BYTES) return false;
  return bytesKeyed || utf8Length(text.slice(0, nul)) < BINARY_SNIFF_BYTES;
}

/**
 * diff2html (and most viewers) hide a trailing "\r", so a file converted between CRLF and
 * LF would show every line removed and re-added unchanged. Say so in words.
 */
function lineEndingNote(before: string, after: string): string | undefined {
  const was = lineEnding(before);
  const now = lineEnding(after);
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
