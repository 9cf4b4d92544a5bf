/**
 * Characters a viewer could show as a line break, made visible in the card's diff text, so
 * that each line of the diff is exactly one line of the file and content cannot forge
 * diff lines (a fake context line, a second file's headers) or a hunk label.
 *
 * diff2html (3.4.56, diff-parser.js) splits its input with `.replace(/\r\n?/g, '\n')
 * .split('\n')`: a carriage return not followed by "\n" starts a new line there. Only the
 * "\r" of a CRLF line ending is left alone, since that is where the line really ends. A
 * browser may also break at Unicode's other mandatory breaks (VT, FF, NEL, LS, PS), so
 * those are shown too. The file's bytes are untouched: only what the card displays changes.
 */

/** What a call replaced, so the card can say so in words. */
export interface BreaksSeen {
  /** A carriage return not part of a CRLF line ending. */
  loneCr: boolean;
  /** VT, FF, U+0085, U+2028 or U+2029. */
  other: boolean;
}

export function noBreaksSeen(): BreaksSeen {
  return { loneCr: false, other: false };
}

/** Control pictures where Unicode has one, else the code point. */
const SYMBOLS: Record<string, string> = {
  '\r': '␍',
  '\v': '␋',
  '\f': '␌',
  '\u0085': '⟨U+0085⟩',
  '\u2028': '⟨U+2028⟩',
  '\u2029': '⟨U+2029⟩',
};

/** A "\r" just before "\n" ends a CRLF line, and "\n" ends every diff line: both are kept. */
const BREAKS = /\r(?!\n)|[\v\f\u0085\u2028\u2029]/g;

/** `text` with every such character replaced by its symbol; `seen` records what was. */
export function showBreaks(text: string, seen: BreaksSeen): string {
  return text.replace(BREAKS, (ch) => {
    if (ch === '\r') seen.loneCr = true;
    else seen.other = true;
    return SYMBOLS[ch] as string;
  });
}
