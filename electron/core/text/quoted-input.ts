/**
 * Input quoted back in an error (a refused IPC payload, an id no card has). The input is
 * whatever a caller sent: a 20 MB key name, NUL, a right-to-left override, a lone
 * surrogate. So at most QUOTED_INPUT_MAX_CHARS of it come back, and every character a
 * person could not see or could misread is written as an escape, as the cards mark them:
 * control characters, direction controls, zero-width and filler characters, and halves
 * of a surrogate pair.
 */

/** At most this many characters of any input are quoted in an error. */
export const QUOTED_INPUT_MAX_CHARS = 200;

/** Direction controls, zero-width and filler characters that draw as nothing. */
const INVISIBLE = new Set([
  0xad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029,
  0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069,
  0x3164, 0xfeff, 0xffa0,
]);

function escapeOf(cp: number): string | null {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
  if (INVISIBLE.has(cp) || (cp >= 0xd800 && cp <= 0xdfff)) return `\\u{${cp.toString(16).toUpperCase()}}`;
  if (cp === 0x5c) return '\\\\';
  return null;
}

/**
 * The text with every invisible or misleading character written as an escape (a
 * backslash doubled). With `keepLines`, line feeds and tabs stay as they are: an error of
 * several lines (a server's stderr) still reads as lines.
 */
export function visibleText(text: string, options: { keepLines?: boolean } = {}): string {
  let out = '';
  // for…of walks code points; a lone surrogate comes through as itself.
  for (const ch of text) {
    const kept = options.keepLines && (ch === '\n' || ch === '\t');
    out += kept ? ch : (escapeOf(ch.codePointAt(0) as number) ?? ch);
  }
  return out;
}

/** `"…"`: at most QUOTED_INPUT_MAX_CHARS characters of the input, made visible, and how many more there were. */
export function quoteInput(text: string): string {
  const head: string[] = [];
  let total = 0;
  for (const ch of text) {
    if (total < QUOTED_INPUT_MAX_CHARS) head.push(ch);
    total += 1;
    // Counting past the cap would walk a 20 MB string to the end; an estimate from its length says enough.
    if (total > QUOTED_INPUT_MAX_CHARS) break;
  }
  const quoted = `"${visibleText(head.join(''))}"`;
  if (total <= QUOTED_INPUT_MAX_CHARS) return quoted;
  return `${quoted}… (cut; ${text.length.toLocaleString('en-US')} characters in all)`;
}
