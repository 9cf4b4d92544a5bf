/**
 * Reads ripgrep's `--null --line-number --with-filename` output as it streams:
 * `path NUL line ":" text LF` per matching line. The first matches are kept (each line
 * cut to a character limit); past them the reader says once that there are more, so
 * ripgrep can be stopped there, and memory stays bounded however much it prints.
 */

const NUL = 0x00;
const LF = 0x0a;
/** Bytes kept of a path or a message line; real paths are far shorter. */
const FIELD_MAX_BYTES = 8 * 1024;
/** ripgrep's own non-match lines (e.g. "binary file matches") kept for the result. */
const NOTES_MAX = 5;

export class RgOutputReader {
  /** Kept matches, formatted `path:line:text`. */
  readonly matches: string[] = [];
  /** Lines ripgrep printed that are not matches. */
  readonly notes: string[] = [];
  private total = 0;
  private inText = false;
  private path = '';
  private field: Buffer[] = [];
  private fieldBytes = 0;
  private fieldCut = false;

  constructor(
    private readonly maxMatches: number,
    private readonly maxChars: number,
    /** Told once, at the first match past the kept ones: nothing more is needed. */
    private readonly onMore: () => void = () => {},
  ) {}

  /** Every matching line read, kept or not (a lower bound once ripgrep was stopped). */
  get totalMatches(): number {
    return this.total;
  }

  /** Whether a match past the kept ones was seen. */
  get more(): boolean {
    return this.total > this.matches.length;
  }

  feed(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (!this.inText && this.matches.length >= this.maxMatches) {
        // Past the limit only the count matters, and every match line has exactly one NUL.
        const seen = countByte(chunk, NUL, pos);
        if (seen > 0 && !this.more) this.onMore();
        this.total += seen;
        return;
      }
      pos = this.inText ? this.readText(chunk, pos) : this.readPath(chunk, pos);
    }
  }

  private readPath(chunk: Buffer, pos: number): number {
    const nul = chunk.indexOf(NUL, pos);
    const lf = chunk.indexOf(LF, pos);
    if (nul !== -1 && (lf === -1 || nul < lf)) {
      this.path = this.take(chunk.subarray(pos, nul)).toString('utf8');
      this.inText = true;
      return nul + 1;
    }
    if (lf !== -1) {
      // A line with no NUL is ripgrep talking, not a match.
      const note = this.take(chunk.subarray(pos, lf)).toString('utf8');
      if (this.notes.length < NOTES_MAX) this.notes.push(note);
      return lf + 1;
    }
    this.append(chunk.subarray(pos), FIELD_MAX_BYTES);
    return chunk.length;
  }

  private readText(chunk: Buffer, pos: number): number {
    const lf = chunk.indexOf(LF, pos);
    // Keep enough bytes for maxChars characters of up to 4 bytes each, after "line:".
    const keep = this.maxChars * 4 + 32;
    if (lf === -1) {
      this.append(chunk.subarray(pos), keep);
      return chunk.length;
    }
    this.append(chunk.subarray(pos, lf), keep);
    const cut = this.fieldCut;
    const record = this.take(Buffer.alloc(0)).toString('utf8');
    this.addMatch(record, cut);
    this.inText = false;
    return lf + 1;
  }

  private addMatch(record: string, bytesDropped: boolean): void {
    this.total++;
    const colon = record.indexOf(':');
    const line = record.slice(0, colon);
    const text = cutLine(record.slice(colon + 1), this.maxChars, bytesDropped);
    this.matches.push(`${this.path}:${line}:${text}`);
  }

  private append(bytes: Buffer, limit: number): void {
    const room = limit - this.fieldBytes;
    if (bytes.length > room) this.fieldCut = true;
    const kept = bytes.length > room ? bytes.subarray(0, Math.max(0, room)) : bytes;
    if (kept.length === 0) return;
    this.field.push(Buffer.from(kept));
    this.fieldBytes += kept.length;
  }

  /** The field so far plus `last`, and a fresh field. */
  private take(last: Buffer): Buffer {
    const whole = this.field.length === 0 ? last : Buffer.concat([...this.field, last]);
    this.field = [];
    this.fieldBytes = 0;
    this.fieldCut = false;
    return whole;
  }
}

/** At most `max` characters (code points), marked with "…" when anything was left out. */
export function cutLine(line: string, max: number, alreadyCut = false): string {
  const text = !alreadyCut && line.endsWith('\r') ? line.slice(0, -1) : line;
  let end = 0;
  for (let count = 0; end < text.length && count < max; count++) {
    end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  }
  return end < text.length || alreadyCut ? `${text.slice(0, end)}…` : text;
}

function countByte(chunk: Buffer, byte: number, from: number): number {
  let n = 0;
  for (let i = chunk.indexOf(byte, from); i !== -1; i = chunk.indexOf(byte, i + 1)) n++;
  return n;
}
