/**
 * The window counts a text's UTF-8 bytes as the core does (Buffer.byteLength): the card's
 * sizes and the 256 KiB limit on the person's version must read the same on both sides.
 */
import { describe, expect, it } from 'vitest';
import { asWritten, utf8Length } from '../../../../shared/diff/utf8.js';

describe('utf8Length', () => {
  it.each([
    ['empty', ''],
    ['ASCII', 'hello\n'],
    ['two-byte characters', 'café ñ'],
    ['three-byte characters', '€ 中文 \u2028'],
    ['a surrogate pair (four bytes)', 'emoji 😀 and 𝄞'],
    ['a lone high surrogate, written as U+FFFD', 'a\ud83db'],
    ['a lone low surrogate', 'a\ude00b'],
    ['a high surrogate at the very end', 'end\ud83d'],
    ['two high surrogates in a row', '\ud83d\ud83d\ude00'],
  ])('counts %s as Buffer.byteLength does', (_name, text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('asWritten', () => {
  it.each([
    ['well-formed text, unchanged', 'café 😀\n'],
    ['a lone high surrogate', 'a\ud83db'],
    ['a lone low surrogate', 'a\ude00b'],
    ['a high surrogate at the very end', 'end\ud83d'],
    ['two high surrogates then a low one', '\ud83d\ud83d\ude00'],
  ])('reads %s as the UTF-8 bytes written would', (_name, text) => {
    expect(asWritten(text)).toBe(Buffer.from(text, 'utf8').toString('utf8'));
  });
});
