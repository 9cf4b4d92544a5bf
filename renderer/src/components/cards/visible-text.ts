/**
 * Splits untrusted text (a path, an argv token) into plain runs and marks for the
 * characters a person could not see or could misread: spaces at the edges, quotes, tabs,
 * newlines, control characters, bidi controls, zero-width and look-alike space characters.
 * Two strings that differ in any of these render differently (UI.md card rule 2).
 */

export type Segment =
  | { kind: 'text'; text: string }
  /** `mark` is what is shown; `name` names the character for a tooltip. */
  | { kind: 'mark'; mark: string; name: string; style: MarkStyle };

/** control: C0/C1 and whitespace; bidi: direction controls; invisible: zero-width; quote: quote marks. */
export type MarkStyle = 'control' | 'bidi' | 'invisible' | 'quote' | 'space' | 'empty';

const NAMED: Record<number, string> = {
  0x09: 'tab',
  0x0a: 'line feed (newline)',
  0x0b: 'vertical tab',
  0x0c: 'form feed',
  0x0d: 'carriage return',
  0x1b: 'escape',
  0x7f: 'delete',
  0x85: 'next line (NEL)',
  0xa0: 'no-break space',
  0xad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x061c: 'Arabic letter mark',
  0x115f: 'Hangul choseong filler',
  0x1160: 'Hangul jungseong filler',
  0x1680: 'Ogham space mark',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x202f: 'narrow no-break space',
  0x205f: 'medium mathematical space',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x3000: 'ideographic space',
  0x3164: 'Hangul filler',
  0xfeff: 'zero-width no-break space (BOM)',
  0x22: 'double quote',
  0x27: 'single quote',
  0x60: 'backtick',
  0x2018: 'left single quotation mark',
  0x2019: 'right single quotation mark',
  0x201c: 'left double quotation mark',
  0x201d: 'right double quotation mark',
};

/**
 * Marks that common fonts can draw (Unicode's Control Pictures block is missing from many
 * Linux fonts and would show as identical boxes); everything else is an escape like \x01.
 */
const PICTURES: Record<number, string> = { 0x09: '⇥', 0x0a: '↵', 0x0d: '\\r', 0x1b: '\\x1B' };

function hex2(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(2, '0');
}

function isBidi(cp: number): boolean {
  return (
    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c
  );
}

function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200d) ||
    cp === 0x2060 ||
    cp === 0xfeff ||
    cp === 0xad ||
    cp === 0x034f ||
    cp === 0x180e ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x3164 ||
    (cp >= 0x2061 && cp <= 0x2064) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    (cp >= 0xfff9 && cp <= 0xfffb)
  );
}

/** Spaces that look like U+0020 but are not it. */
function isOddSpace(cp: number): boolean {
  return (
    cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x202f || cp === 0x205f || cp === 0x3000
  );
}

function isControl(cp: number): boolean {
  return cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029;
}

function isQuote(cp: number): boolean {
  return cp === 0x22 || cp === 0x27 || cp === 0x60 || (cp >= 0x2018 && cp <= 0x201f);
}

function codeOf(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function nameOf(cp: number): string {
  const name = NAMED[cp];
  return name ? `${name} (${codeOf(cp)})` : codeOf(cp);
}

/** The mark for one character, or null when it is shown as itself. */
function markFor(cp: number, options: VisibleOptions): Segment | null {
  const ch = String.fromCodePoint(cp);
  const code = `\\u{${cp.toString(16).toUpperCase()}}`;
  if (cp === 0x09 && !options.tabs) return null;
  if (isControl(cp)) {
    const picture = PICTURES[cp] ?? (cp <= 0xff ? `\\x${hex2(cp)}` : code);
    return { kind: 'mark', mark: picture, name: nameOf(cp), style: 'control' };
  }
  if (isBidi(cp)) return { kind: 'mark', mark: code, name: nameOf(cp), style: 'bidi' };
  if (isInvisible(cp)) return { kind: 'mark', mark: code, name: nameOf(cp), style: 'invisible' };
  if (isOddSpace(cp)) return { kind: 'mark', mark: code, name: nameOf(cp), style: 'space' };
  if (isQuote(cp) && options.quotes) return { kind: 'mark', mark: ch, name: nameOf(cp), style: 'quote' };
  return null;
}

const EDGE_SPACE: Segment = { kind: 'mark', mark: '␣', name: 'space at the edge (U+0020)', style: 'space' };

export interface VisibleOptions {
  /** Spaces at either end become marks (argv tokens, paths); inner spaces stay spaces. */
  edgeSpaces: boolean;
  quotes: boolean;
  tabs: boolean;
}

/** For argv tokens and paths: everything marked. */
export const TOKEN_OPTIONS: VisibleOptions = { edgeSpaces: true, quotes: true, tabs: true };
/** For prose that quotes untrusted text (a card's scope): only what could hide or reorder. */
export const PROSE_OPTIONS: VisibleOptions = { edgeSpaces: false, quotes: false, tabs: true };
/** For lines of a file in a diff: indentation, tabs and quotes are ordinary there. */
export const CODE_OPTIONS: VisibleOptions = { edgeSpaces: false, quotes: false, tabs: false };

export function visibleSegments(text: string, options: VisibleOptions = TOKEN_OPTIONS): Segment[] {
  if (text === '' && options.edgeSpaces) return [{ kind: 'mark', mark: '∅', name: 'empty string', style: 'empty' }];
  const chars = Array.from(text);
  const firstSolid = chars.findIndex((c) => c !== ' ');
  const lastSolid = chars.findLastIndex((c) => c !== ' ');
  const segments: Segment[] = [];
  let run = '';
  const flush = () => {
    if (run) segments.push({ kind: 'text', text: run });
    run = '';
  };
  chars.forEach((ch, i) => {
    const edge = options.edgeSpaces && ch === ' ' && (firstSolid < 0 || i < firstSolid || i > lastSolid);
    const mark = edge ? EDGE_SPACE : markFor(ch.codePointAt(0) as number, options);
    if (!mark) {
      run += ch;
      return;
    }
    flush();
    segments.push(mark);
  });
  flush();
  return segments;
}

/** The same marks as plain text, for a tooltip, where no styling can set them apart. */
export function visibleString(text: string, options: VisibleOptions = TOKEN_OPTIONS): string {
  return visibleSegments(text, options)
    .map((s) => (s.kind === 'text' ? s.text : s.mark))
    .join('');
}
