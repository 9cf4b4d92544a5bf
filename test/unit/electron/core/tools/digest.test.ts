import { describe, expect, it } from 'vitest';
import { ABSENT_DIGEST, digestOf } from '../../../../../electron/core/tools/digest.js';

describe('digestOf', () => {
  it('is the SHA-256 hex of the bytes', () => {
    expect(digestOf(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is "absent" for no file, and differs from an empty file', () => {
    expect(digestOf(null)).toBe(ABSENT_DIGEST);
    expect(digestOf(Buffer.alloc(0))).not.toBe(ABSENT_DIGEST);
  });
});
