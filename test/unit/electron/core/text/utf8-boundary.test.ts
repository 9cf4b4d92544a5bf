import { describe, expect, it } from 'vitest';
import { leadingContinuationBytes, wholeCharLength } from '../../../../../electron/core/text/utf8-boundary.js';

describe('wholeCharLength', () => {
  it('keeps a window that ends on a character boundary', () => {
    expect(wholeCharLength(Buffer.from('a€😀'))).toBe(8);
  });

  it('drops each possible partial tail of a 2-, 3- and 4-byte character', () => {
    for (const char of ['é', '€', '😀']) {
      const bytes = Buffer.from('ab' + char);
      for (let cut = 1; cut < Buffer.byteLength(char); cut++) {
        expect(wholeCharLength(bytes.subarray(0, 2 + cut))).toBe(2);
      }
    }
  });

  it('leaves invalid bytes for the decoder rather than dropping them', () => {
    expect(wholeCharLength(Buffer.from([0x61, 0xff]))).toBe(2);
    expect(wholeCharLength(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80]))).toBe(5);
  });
});

describe('leadingContinuationBytes', () => {
  it('counts the bytes to skip when a window starts inside a character', () => {
    const euro = Buffer.from('€x');
    expect(leadingContinuationBytes(euro)).toBe(0);
    expect(leadingContinuationBytes(euro.subarray(1))).toBe(2);
    expect(leadingContinuationBytes(euro.subarray(2))).toBe(1);
  });
});
