import { describe, expect, it } from 'vitest';
import { LogCorruptError, parseEventLines } from '../../../../../electron/core/log/event-lines.js';

function line(seq: number): string {
  return `${JSON.stringify({ seq, ts: '2025-01-01T00:00:00.000Z', type: 'assistant_text', turnId: 't', text: `é${seq}` })}\n`;
}

const good = line(1) + line(2) + line(3);

describe('parseEventLines', () => {
  it('reads a clean file whole, with nothing torn', () => {
    const data = Buffer.from(good);
    const parsed = parseEventLines(data, 'events.jsonl');
    expect(parsed.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(parsed.goodBytes).toBe(data.length);
    expect(parsed.torn).toBeNull();
  });

  it('reads an empty file as no events', () => {
    expect(parseEventLines(Buffer.alloc(0), 'f')).toEqual({ events: [], goodBytes: 0, torn: null });
  });

  it('treats a last line without a newline as torn, even when it parses', () => {
    const data = Buffer.from(good + line(4).trimEnd());
    const parsed = parseEventLines(data, 'f');
    expect(parsed.events).toHaveLength(3);
    expect(parsed.goodBytes).toBe(Buffer.byteLength(good));
    expect(parsed.torn?.toString()).toBe(line(4).trimEnd());
  });

  it('treats a trailing run of garbage lines (a power cut before fsync) as torn', () => {
    const garbage = Buffer.concat([
      Buffer.from('{"seq":4,"ts'),
      Buffer.from('\n'),
      Buffer.alloc(50),
      Buffer.from('\n'),
    ]);
    const data = Buffer.concat([Buffer.from(good), garbage]);
    const parsed = parseEventLines(data, 'f');
    expect(parsed.events).toHaveLength(3);
    expect(parsed.goodBytes).toBe(Buffer.byteLength(good));
    expect(parsed.torn?.equals(garbage)).toBe(true);
  });

  it('counts the good part in bytes, not characters, when the tail holds broken UTF-8', () => {
    const tail = Buffer.from([0xe2, 0x82, 0x0a, 0xff]);
    const parsed = parseEventLines(Buffer.concat([Buffer.from(good), tail]), 'f');
    expect(parsed.goodBytes).toBe(Buffer.byteLength(good));
    expect(parsed.torn?.equals(tail)).toBe(true);
  });

  it('refuses a damaged line with good lines after it, naming the line', () => {
    const data = Buffer.from(line(1) + '{"seq":2,"ts":\n' + line(2));
    expect(() => parseEventLines(data, '/s/events.jsonl')).toThrow(LogCorruptError);
    expect(() => parseEventLines(data, '/s/events.jsonl')).toThrow(/\/s\/events\.jsonl is damaged at line 2/);
  });

  it('refuses a blank line in the middle', () => {
    expect(() => parseEventLines(Buffer.from(line(1) + '\n' + line(2)), 'f')).toThrow(/line 2: not valid JSON/);
  });

  it('refuses a line that is JSON but not an event', () => {
    expect(() => parseEventLines(Buffer.from(line(1) + '[1,2]\n' + line(2)), 'f')).toThrow(/line 2: not an event/);
  });

  it('refuses seqs that skip or repeat', () => {
    expect(() => parseEventLines(Buffer.from(line(1) + line(3)), 'f')).toThrow(/line 2: seq 3 where 2 was expected/);
    expect(() => parseEventLines(Buffer.from(line(1) + line(1)), 'f')).toThrow(/seq 1 where 2/);
    expect(() => parseEventLines(Buffer.from(line(2)), 'f')).toThrow(/seq 2 where 1/);
  });
});
