/**
 * Parsing events.jsonl. The log is append-only with a single writer whose failed writes
 * are rolled back, so the only damage a crash can leave is at the end: a last line cut
 * short (no newline), or with a power loss before an fsync, a run of garbage lines. That
 * trailing run is the *torn tail*; it was never acknowledged, and is set aside.
 *
 * A bad line with good lines after it cannot come from a crash: something else damaged
 * the file. We refuse to read such a log (LogCorruptError) rather than skip the line,
 * because state built over a hole (a lost answer, a lost grant) would be quietly wrong.
 */
import type { SessionEvent } from '../../../shared/events.js';
import type { ErrorKind } from '../error-kind.js';

const NEWLINE = 0x0a;

export interface ParsedLog {
  events: SessionEvent[];
  /** Length in bytes of the good part of the file: where the next append belongs. */
  goodBytes: number;
  /** The bytes after the good part, or null when the file ends cleanly. */
  torn: Buffer | null;
}

/** A damaged line in the middle of the log, or seqs that do not run 1, 2, 3, ... */
export class LogCorruptError extends Error {
  /** Damage on disk: the person is told, and it is reported like a fault of the app. */
  readonly errorKind: ErrorKind = 'internal';
  override readonly name = 'LogCorruptError';
  constructor(
    readonly file: string,
    /** 1-based line number of the first damaged line. */
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${file} is damaged at line ${line}: ${problem}. The session cannot be replayed safely.`);
  }
}

export function parseEventLines(data: Buffer, file: string): ParsedLog {
  const completeEnd = data.lastIndexOf(NEWLINE) + 1;
  // TextDecoder, not Buffer#toString: same result, but on ASCII (most logs) it is about
  // 25x faster, and decoding was the largest cost of reopening a long session.
  const lines = new TextDecoder().decode(data.subarray(0, completeEnd)).split('\n');
  lines.pop(); // the empty string after the final newline
  const events: SessionEvent[] = [];
  let firstBad = -1;
  let firstBadProblem = '';
  for (let i = 0; i < lines.length; i++) {
    const parsed = parseLine(lines[i] as string);
    if (typeof parsed === 'string') {
      if (firstBad < 0) [firstBad, firstBadProblem] = [i, parsed];
      continue;
    }
    if (firstBad >= 0) throw new LogCorruptError(file, firstBad + 1, firstBadProblem);
    if (parsed.seq !== events.length + 1) {
      throw new LogCorruptError(file, i + 1, `seq ${parsed.seq} where ${events.length + 1} was expected`);
    }
    events.push(parsed);
  }
  const goodBytes = firstBad < 0 ? completeEnd : offsetOfLine(data, firstBad);
  return { events, goodBytes, torn: goodBytes < data.length ? data.subarray(goodBytes) : null };
}

/** The event on a line, or why the line is not one. */
function parseLine(line: string): SessionEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `not valid JSON: ${JSON.stringify(line.slice(0, 60))}`;
  }
  if (!isEventShape(value))
    return `not an event (needs numeric seq, string ts and type): ${JSON.stringify(line.slice(0, 60))}`;
  return value;
}

/** The fields every line must carry; the payload itself is trusted, as we wrote it. */
function isEventShape(value: unknown): value is SessionEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Number.isInteger(v.seq) && typeof v.ts === 'string' && typeof v.type === 'string';
}

/** Byte offset where 0-based line `index` starts (counted in bytes, not decoded text). */
function offsetOfLine(data: Buffer, index: number): number {
  let offset = 0;
  for (let i = 0; i < index; i++) offset = data.indexOf(NEWLINE, offset) + 1;
  return offset;
}
