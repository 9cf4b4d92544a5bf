/**
 * Names as bytes and as strings: a UTF-8 name is its text, and any other name becomes a
 * string that leads back to exactly its bytes and says it was not UTF-8.
 */
import { describe, expect, it } from 'vitest';
import { decodePath, encodePath, hasEscapedBytes } from '../../../../../electron/core/checkpoints/path-names.js';

const hex = (h: string) => Buffer.from(h.replace(/ /g, ''), 'hex');

describe('path names', () => {
  it.each([
    ['plain ASCII', Buffer.from('src/app.ts')],
    ['UTF-8 with accents and an emoji', Buffer.from('docs/café/😀.md')],
    ['a real U+FFFD in the name', Buffer.from('odd\uFFFD.txt')],
    ['a character past U+FFFF whose low surrogate is DC80', Buffer.from('\u{10080}.txt')],
  ])('keeps %s as its text, not escaped', (_, bytes) => {
    const name = decodePath(bytes);
    expect(name).toBe(bytes.toString('utf8'));
    expect(hasEscapedBytes(name)).toBe(false);
    expect(encodePath(name)).toEqual(bytes);
  });

  it.each([
    ['a Latin-1 byte', hex('63 61 66 e9 2e 74 78 74')],
    ['a cut sequence at the end', hex('61 e2 82')],
    ['an overlong slash', hex('c0 af 61')],
    ['an encoded surrogate', hex('ed a0 80 2f 78')],
    ['valid text around a stray byte', Buffer.concat([Buffer.from('é/'), hex('ff'), Buffer.from('/ü')])],
  ])('escapes %s and gives the same bytes back', (_, bytes) => {
    const name = decodePath(bytes);
    expect(hasEscapedBytes(name)).toBe(true);
    expect(encodePath(name)).toEqual(bytes);
  });

  it('gives two names that differ in one invalid byte two strings', () => {
    expect(decodePath(hex('61 fe'))).not.toBe(decodePath(hex('61 ff')));
  });
});
