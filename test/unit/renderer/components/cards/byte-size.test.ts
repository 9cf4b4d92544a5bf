import { describe, expect, it } from 'vitest';
import { byteSize } from '../../../../../renderer/src/components/cards/byte-size';

describe('byte sizes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1.0 KiB'],
    [1126, '1.1 KiB'],
    [65_536, '64 KiB'],
    [1_048_576, '1.0 MiB'],
    [5 * 1024 ** 3, '5.0 GiB'],
  ])('%d bytes reads as %s', (bytes, words) => {
    expect(byteSize(bytes)).toBe(words);
  });
});
