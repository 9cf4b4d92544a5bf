import { describe, expect, it } from 'vitest';
import { RgOutputReader, cutLine } from '../../../../../electron/core/tools/rg-output.js';

const record = (file: string, line: number, text: string) => Buffer.from(`${file}\0${line}:${text}\n`);

function feedInPieces(reader: RgOutputReader, whole: Buffer, size: number): void {
  for (let i = 0; i < whole.length; i += size) reader.feed(whole.subarray(i, i + size));
}

describe('RgOutputReader', () => {
  it('parses records split at every possible byte boundary', async () => {
    const whole = Buffer.concat([record('a b:c.txt', 3, 'x:y'), record('d/é.ts', 10, 'naïve'), record('e', 1, '')]);
    for (const size of [1, 2, 3, 5, 7, whole.length]) {
      const reader = new RgOutputReader(10, 500);
      feedInPieces(reader, whole, size);
      expect(reader.matches).toEqual(['a b:c.txt:3:x:y', 'd/é.ts:10:naïve', 'e:1:']);
      expect(reader.totalMatches).toBe(3);
    }
  });

  it('keeps the first matches, and says once that there are more', async () => {
    let told = 0;
    const reader = new RgOutputReader(2, 500, () => told++);
    const whole = Buffer.concat(Array.from({ length: 7 }, (_, i) => record('f', i + 1, 'hit')));
    feedInPieces(reader, whole, 4);
    expect(reader.matches).toEqual(['f:1:hit', 'f:2:hit']);
    expect(reader.more).toBe(true);
    expect(told).toBe(1);
    const exactly = new RgOutputReader(2, 500, () => told++);
    feedInPieces(exactly, whole.subarray(0, whole.indexOf('f\x003')), 4);
    expect(exactly.more).toBe(false);
    expect(told).toBe(1);
  });

  it('keeps a line without a NUL as a note, not a match', async () => {
    const reader = new RgOutputReader(10, 500);
    reader.feed(Buffer.from('bin.dat: binary file matches (found "\\0" byte around offset 5)\n'));
    reader.feed(record('f', 1, 'hit'));
    expect(reader.notes).toEqual(['bin.dat: binary file matches (found "\\0" byte around offset 5)']);
    expect(reader.matches).toEqual(['f:1:hit']);
    expect(reader.totalMatches).toBe(1);
  });

  it('holds only the start of a very long line', async () => {
    const reader = new RgOutputReader(10, 5);
    const whole = record('f', 1, 'abcdefghij'.repeat(100_000));
    feedInPieces(reader, whole, 64 * 1024);
    expect(reader.matches).toEqual(['f:1:abcde…']);
  });
});

describe('cutLine', () => {
  it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
    expect(cutLine('😀😀😀', 2)).toBe('😀😀…');
    expect(cutLine('😀😀', 2)).toBe('😀😀');
  });

  it('marks a line whose bytes were already dropped even when it fits', () => {
    expect(cutLine('abc', 5, true)).toBe('abc…');
  });
});
