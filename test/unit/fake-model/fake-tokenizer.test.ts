/** The fake model's tokenizer: content-dependent, with the real tokenizers' rough ratios. */
import { describe, expect, it } from 'vitest';
import { fakeTokenCount } from '../../fake-model/fake-tokenizer.js';
import { bytesPerToken, CODE, ENGLISH, HEX, JSON_TEXT } from './token-samples.js';

describe('fakeTokenCount', () => {
  it('gives English prose about 4 bytes per token', () => {
    const ratio = bytesPerToken(ENGLISH, fakeTokenCount(ENGLISH));
    expect(ratio).toBeGreaterThan(3.5);
    expect(ratio).toBeLessThan(4.5);
  });

  it('gives code a little less than prose', () => {
    const ratio = bytesPerToken(CODE, fakeTokenCount(CODE));
    expect(ratio).toBeGreaterThan(3);
    expect(ratio).toBeLessThan(4);
    expect(ratio).toBeLessThan(bytesPerToken(ENGLISH, fakeTokenCount(ENGLISH)));
  });

  it('makes dense text cost more: JSON under 3 bytes per token, hex under 2', () => {
    expect(bytesPerToken(JSON_TEXT, fakeTokenCount(JSON_TEXT))).toBeLessThan(3);
    expect(bytesPerToken(HEX, fakeTokenCount(HEX))).toBeLessThan(2);
  });

  it('is not a bytes ratio: texts of one length count differently', () => {
    const words = 'alpha beta gamma delta'; // 22 bytes
    const marks = '{"a":[1,2],"b":{"c":3}'; // 22 bytes
    expect(words).toHaveLength(marks.length);
    expect(fakeTokenCount(words)).toBeLessThan(fakeTokenCount(marks));
  });

  it('counts words with their leading space, long words and numbers in pieces', () => {
    expect(fakeTokenCount('')).toBe(0);
    expect(fakeTokenCount('the cat sat')).toBe(3);
    expect(fakeTokenCount('internationalization')).toBe(4); // 20 letters, 6 per token
    expect(fakeTokenCount('1234567')).toBe(3); // 123 456 7
    expect(fakeTokenCount('a, b.')).toBe(4); // a , ␣b .
    expect(fakeTokenCount('x\n\n    y')).toBe(4); // x \n\n ␣␣␣ ␣y
  });

  it('prices non-ASCII text by its UTF-8 length', () => {
    expect(fakeTokenCount('日本語のテキスト')).toBe(4); // 8 letters × 3 bytes, 6 bytes per token
    expect(fakeTokenCount('😀😀')).toBe(1); // one run of two marks
  });
});
