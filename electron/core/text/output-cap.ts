import { RUN_STREAM_MAX_BYTES } from '../../../shared/limits.js';
/**
 * Bounded capture of one output stream (SPEC §2, run): the first half of the budget is
 * kept as the head, the last half as a ring-buffer tail, and everything between is only
 * counted. Memory is two fixed buffers however much the process prints.
 */
import { leadingContinuationBytes, wholeCharLength } from './utf8-boundary.js';

export interface CapturedText {
  /** Head, marker, tail; or the whole stream when nothing was left out. */
  text: string;
  /** Bytes the stream carried in all. */
  totalBytes: number;
  /** Bytes not in `text` (0 when the stream fit). */
  omittedBytes: number;
}

export class OutputCap {
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: Buffer;
  /** Index in `tail` of the oldest byte kept. */
  private tailStart = 0;
  private tailLength = 0;
  private total = 0;

  constructor(maxBytes: number = RUN_STREAM_MAX_BYTES) {
    const headMax = Math.ceil(maxBytes / 2);
    this.head = Buffer.alloc(headMax);
    this.tail = Buffer.alloc(maxBytes - headMax);
  }

  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const intoHead = chunk.copy(this.head, this.headLength);
    this.headLength += intoHead;
    if (intoHead < chunk.length) this.pushTail(chunk.subarray(intoHead));
  }

  /**
   * The captured text. When bytes were left out, the head is cut back and the tail cut
   * forward to whole UTF-8 characters, so the marker never sits inside a character; the
   * bytes dropped that way are counted as omitted. Invalid UTF-8 the process itself
   * printed is decoded with U+FFFD replacement characters.
   */
  result(): CapturedText {
    const head = this.head.subarray(0, this.headLength);
    const tail = this.tailBytes();
    if (this.total === head.length + tail.length) {
      return { text: Buffer.concat([head, tail]).toString('utf8'), totalBytes: this.total, omittedBytes: 0 };
    }
    const keptHead = head.subarray(0, wholeCharLength(head));
    const keptTail = tail.subarray(leadingContinuationBytes(tail));
    const omitted = this.total - keptHead.length - keptTail.length;
    const marker = omissionMarker(omitted, this.total, keptHead.length, keptTail.length);
    return {
      text: keptHead.toString('utf8') + marker + keptTail.toString('utf8'),
      totalBytes: this.total,
      omittedBytes: omitted,
    };
  }

  private pushTail(bytes: Buffer): void {
    const capacity = this.tail.length;
    if (capacity === 0) return;
    if (bytes.length >= capacity) {
      bytes.copy(this.tail, 0, bytes.length - capacity);
      this.tailStart = 0;
      this.tailLength = capacity;
      return;
    }
    const writeAt = (this.tailStart + this.tailLength) % capacity;
    const firstPart = bytes.copy(this.tail, writeAt);
    bytes.copy(this.tail, 0, firstPart);
    const length = this.tailLength + bytes.length;
    if (length > capacity) this.tailStart = (this.tailStart + length - capacity) % capacity;
    this.tailLength = Math.min(length, capacity);
  }

  private tailBytes(): Buffer {
    const end = this.tailStart + this.tailLength;
    if (end <= this.tail.length) return this.tail.subarray(this.tailStart, end);
    return Buffer.concat([this.tail.subarray(this.tailStart), this.tail.subarray(0, end - this.tail.length)]);
  }
}

/**
 * Text capped at `maxBytes` of UTF-8 the same way: its head and its tail, cut to whole
 * characters, with a marker saying what was left out between them. The one head-and-tail
 * cap for text already in memory (an MCP result, a Stop hook's output, a message quoted in
 * a summary).
 */
export function capText(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const cap = new OutputCap(maxBytes);
  cap.push(Buffer.from(text, 'utf8'));
  return cap.result().text;
}

function omissionMarker(omitted: number, total: number, headBytes: number, tailBytes: number): string {
  return `\n[... ${omitted} bytes left out of ${total}: showing the first ${headBytes} and the last ${tailBytes} ...]\n`;
}
