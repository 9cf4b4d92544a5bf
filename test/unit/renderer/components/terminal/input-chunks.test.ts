/** Input goes to terminal.write in pieces the contract accepts, never splitting a character. */
import { describe, expect, it } from 'vitest';
import { inputChunks } from '../../../../../renderer/src/components/terminal/input-chunks';

describe('inputChunks', () => {
  it('leaves short input whole and sends nothing for nothing', () => {
    expect(inputChunks('ls\r', 8)).toEqual(['ls\r']);
    expect(inputChunks('', 8)).toEqual([]);
  });

  it('cuts long input at the limit', () => {
    expect(inputChunks('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('never cuts a surrogate pair in two', () => {
    const chunks = inputChunks('abc😀def', 4);
    expect(chunks.join('')).toBe('abc😀def');
    expect(chunks[0]).toBe('abc');
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(4);
  });
});
