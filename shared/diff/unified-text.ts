/**
 * Writes hunks as the lines of a unified diff in git's format: `--- a/…` and `+++ b/…`
 * headers (`/dev/null` for a file that does not exist yet), `@@ -s,c +s,c @@` with a
 * count of 1 left out, and "\ No newline at end of file" after a last line without one.
 * Lines keep their text, CRLF endings included, so a CRLF file diffs as what is on disk;
 * only characters a viewer would turn into a line break are shown as symbols (see
 * visible-breaks.ts), in lines and in hunk labels alike.
 */
import type { HunkRange } from './hunk-ranges.js';
import type { ChangeFlags } from './myers-diff.js';
import { noBreaksSeen, showBreaks, type BreaksSeen } from './visible-breaks.js';

export interface UnifiedSource {
  /** The file's path with forward slashes (see diffPath); absent on the old side when the file is being created. */
  path: string;
  creates: boolean;
  oldLines: string[];
  newLines: string[];
  flags: ChangeFlags;
}

export interface UnifiedText {
  /** The diff as one string per line, each ending in "\n". */
  lines: string[];
  /** Which line-breaking characters the text shows as symbols. */
  breaks: BreaksSeen;
}

const NO_NEWLINE = '\\ No newline at end of file\n';

export function unifiedLines(source: UnifiedSource, hunks: HunkRange[]): UnifiedText {
  const out: UnifiedText = {
    lines: [
      `--- ${source.creates ? '/dev/null' : headerName('a/', source.path)}\n`,
      `+++ ${headerName('b/', source.path)}\n`,
    ],
    breaks: noBreaksSeen(),
  };
  const functions = functionLines(source.oldLines);
  for (const hunk of hunks) writeHunk(out, source, hunk, functions(hunk.oldStart));
  return out;
}

function writeHunk(out: UnifiedText, s: UnifiedSource, h: HunkRange, functionLine: string): void {
  // The label is a line of the file too: a lone "\r" in it would forge a diff line.
  const label = functionLine ? ` ${showBreaks(functionLine, out.breaks)}` : '';
  out.lines.push(`@@ -${rangeText(h.oldStart, h.oldEnd)} +${rangeText(h.newStart, h.newEnd)} @@${label}\n`);
  let i = h.oldStart;
  let j = h.newStart;
  while (i < h.oldEnd || j < h.newEnd) {
    if ((i < h.oldEnd && s.flags.oldChanged[i]) || (j < h.newEnd && s.flags.newChanged[j])) {
      while (i < h.oldEnd && s.flags.oldChanged[i]) writeLine(out, '-', s.oldLines[i++] as string);
      while (j < h.newEnd && s.flags.newChanged[j]) writeLine(out, '+', s.newLines[j++] as string);
    } else {
      writeLine(out, ' ', s.oldLines[i++] as string);
      j++;
    }
  }
}

function writeLine(out: UnifiedText, sign: string, line: string): void {
  // A last line ending in a lone "\r" shows it as ␍: the "\n" added here is not the file's.
  const shown = showBreaks(line, out.breaks);
  if (shown.endsWith('\n')) {
    out.lines.push(sign + shown);
  } else {
    out.lines.push(`${sign}${shown}\n`, NO_NEWLINE);
  }
}

/**
 * git's default hunk label: the nearest line above the hunk that starts with a letter,
 * "_" or "$" (a declaration, in most languages), cut to 80 characters. Hunks come in
 * order, so each search resumes where the last one stopped and the whole file is read
 * once.
 */
function functionLines(oldLines: string[]): (hunkStart: number) => string {
  let searchedUpTo = 0;
  let found = '';
  return (hunkStart) => {
    for (let i = hunkStart - 1; i >= searchedUpTo; i--) {
      const line = oldLines[i] as string;
      if (/^[A-Za-z_$]/.test(line)) {
        found = line.slice(0, FUNCTION_LINE_MAX).trimEnd();
        break;
      }
    }
    searchedUpTo = Math.max(searchedUpTo, hunkStart);
    return found;
  };
}

const FUNCTION_LINE_MAX = 80;

/** An empty range names the line before it, so an empty side reads "0,0" (GNU and git). */
function rangeText(start: number, end: number): string {
  const count = end - start;
  if (count === 1) return String(start + 1);
  return `${count === 0 ? start : start + 1},${count}`;
}

/**
 * The path as git prints it: no leading slash (an absolute path reads "a/home/…"), and
 * C-quoted when it holds a quote, a backslash, a control character or a Unicode line break
 * (NEL, LS, PS), so a newline in a file name cannot forge diff lines.
 */
function headerName(prefix: string, slashed: string): string {
  const name = prefix + slashed.replace(/^\/+/, '');
  return NEEDS_QUOTES.test(name) ? `"${name.replace(QUOTED_CHARS, quoteChar)}"` : name;
}

// eslint-disable-next-line no-control-regex
const QUOTED_CHARS = /["\\\x00-\x1f\x7f\u0085\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex
const NEEDS_QUOTES = /["\\\x00-\x1f\x7f\u0085\u2028\u2029]/;

const UTF8 = new TextEncoder();

const C_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/** Other characters as git quotes them: each UTF-8 byte in octal. */
function quoteChar(ch: string): string {
  return C_ESCAPES[ch] ?? [...UTF8.encode(ch)].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
}
