/**
 * The fake model's tokenizer. Real tokenizers (BPE) are content-dependent: ordinary English
 * and code come out near 3.5–4.5 bytes per token, while dense text such as hex digests or
 * JSON punctuation costs far more tokens per byte. A fixed bytes-per-token ratio would hide
 * exactly what the app's context budget has to survive (a hex-heavy tool result filling the
 * window), so this one splits text the way BPE tokenizers pre-split it and prices each piece.
 *
 * The pieces are those of the cl100k / o200k pre-tokenizer pattern (OpenAI's tiktoken):
 *   [^\r\n\p{L}\p{N}]?\p{L}+  a word, with at most one leading space or mark (" the", "(path")
 *   \p{N}{1,3}                digits in groups of at most three
 *   ' ?[^\s\p{L}\p{N}]+[\r\n]*'  a run of marks, with one leading space and trailing newlines
 *   \s*[\r\n]+ | \s+(?!\S) | \s+  whitespace, leaving a run's last space to the next word
 * and each piece costs:
 *   a word: one token per 6 UTF-8 bytes of letters (most English words are one token; a long
 *     identifier, or accented or CJK text, several);
 *   a digit group: one token;
 *   a run of marks: one token per 2 marks (BPE vocabularies hold "();", "=>", "//" whole);
 *   whitespace: one token.
 * Measured (test/unit/fake-model/fake-tokenizer.test.ts): English prose about 4.1 bytes per
 * token, TypeScript 3.4 to 3.9, JSON about 2.6, hex digests 1.8.
 *
 * Deterministic, and fast enough to count every request of a long benchmark session: one
 * pass over char codes with no allocation; only non-ASCII characters are classified by a
 * regular expression.
 */

const LETTER_BYTES_PER_TOKEN = 6;
const DIGITS_PER_TOKEN = 3;
const MARKS_PER_TOKEN = 2;

const LETTER = 0;
const DIGIT = 1;
const SPACE = 2;
const MARK = 3;
type Kind = typeof LETTER | typeof DIGIT | typeof SPACE | typeof MARK;

const LETTER_RE = /^\p{L}/u;
const NUMBER_RE = /^\p{N}/u;
const SPACE_RE = /^\s/u;

/** The character at `at`: its kind, UTF-16 width and UTF-8 length. */
interface Char {
  kind: Kind;
  width: number;
  bytes: number;
}

const ascii: Char[] = Array.from({ length: 128 }, (_, code) => {
  const kind: Kind =
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
      ? LETTER
      : code >= 48 && code <= 57
        ? DIGIT
        : code === 32 || (code >= 9 && code <= 13)
          ? SPACE
          : MARK;
  return { kind, width: 1, bytes: 1 };
});

function charAt(text: string, at: number): Char {
  const code = text.charCodeAt(at);
  if (code < 128) return ascii[code]!;
  const point = text.codePointAt(at) ?? code;
  const width = point > 0xffff ? 2 : 1;
  const bytes = point < 0x800 ? 2 : point <= 0xffff ? 3 : 4;
  const char = String.fromCodePoint(point);
  const kind: Kind = LETTER_RE.test(char) ? LETTER : NUMBER_RE.test(char) ? DIGIT : SPACE_RE.test(char) ? SPACE : MARK;
  return { kind, width, bytes };
}

function isNewline(code: number): boolean {
  return code === 10 || code === 13;
}

/** A pass over one text, piece by piece. */
class Scanner {
  at = 0;
  tokens = 0;

  constructor(private readonly text: string) {}

  kindAt(at: number): Kind | undefined {
    return at < this.text.length ? charAt(this.text, at).kind : undefined;
  }

  /** Letters from `at` on, priced by their UTF-8 length. */
  word(): void {
    let bytes = 0;
    while (this.at < this.text.length) {
      const char = charAt(this.text, this.at);
      if (char.kind !== LETTER) break;
      bytes += char.bytes;
      this.at += char.width;
    }
    this.tokens += Math.ceil(bytes / LETTER_BYTES_PER_TOKEN);
  }

  digits(): void {
    let count = 0;
    while (this.at < this.text.length) {
      const char = charAt(this.text, this.at);
      if (char.kind !== DIGIT) break;
      count += 1;
      this.at += char.width;
    }
    this.tokens += Math.ceil(count / DIGITS_PER_TOKEN);
  }

  /** A run of marks, then any newlines right after it (one piece). */
  marks(): void {
    let count = 0;
    while (this.at < this.text.length) {
      const char = charAt(this.text, this.at);
      if (char.kind !== MARK) break;
      count += 1;
      this.at += char.width;
    }
    while (this.at < this.text.length && isNewline(this.text.charCodeAt(this.at))) this.at += 1;
    this.tokens += Math.ceil(count / MARKS_PER_TOKEN);
  }

  /** Whitespace that no word or mark took as its prefix. */
  whitespace(): void {
    const start = this.at;
    let end = start;
    let lastNewline = -1;
    while (end < this.text.length) {
      const char = charAt(this.text, end);
      if (char.kind !== SPACE) break;
      if (isNewline(this.text.charCodeAt(end))) lastNewline = end;
      end += char.width;
    }
    this.tokens += 1;
    if (lastNewline >= 0) this.at = lastNewline + 1;
    // \s+(?!\S): a run before more text leaves its last character to that text.
    else if (end < this.text.length && end - start > 1) this.at = end - 1;
    else this.at = end;
  }

  step(): void {
    const char = charAt(this.text, this.at);
    const next = this.kindAt(this.at + char.width);
    const code = this.text.charCodeAt(this.at);
    if (char.kind === LETTER) this.word();
    else if (char.kind === DIGIT) this.digits();
    else if (next === LETTER && !isNewline(code)) {
      // One space, tab or mark rides along with the word after it.
      this.at += char.width;
      this.word();
    } else if (char.kind === MARK) this.marks();
    else if (code === 32 && next === MARK) {
      this.at += 1;
      this.marks();
    } else this.whitespace();
  }
}

export function fakeTokenCount(text: string): number {
  const scanner = new Scanner(text);
  while (scanner.at < text.length) scanner.step();
  return scanner.tokens;
}
