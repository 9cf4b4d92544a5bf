import { describe, expect, it } from 'vitest';
import { RUN_STREAM_MAX_BYTES } from '../../../../../shared/limits.js';
import { OutputCap, capText } from '../../../../../electron/core/text/output-cap.js';

function capture(chunks: Buffer[], maxBytes?: number) {
  const cap = new OutputCap(maxBytes);
  for (const chunk of chunks) cap.push(chunk);
  return cap.result();
}

/** Cuts a buffer into pieces of varied sizes, so the ring buffer wraps at odd places. */
function pieces(bytes: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

describe('OutputCap', () => {
  it('returns a stream that fits the budget whole, with nothing omitted', () => {
    const bytes = Buffer.from('a'.repeat(RUN_STREAM_MAX_BYTES));
    const result = capture(pieces(bytes, [1000, 7, 40_000]));
    expect(result).toEqual({ text: bytes.toString(), totalBytes: RUN_STREAM_MAX_BYTES, omittedBytes: 0 });
  });

  it('keeps the first and last half of a longer stream and counts the bytes between', () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `${i}\n`).join('');
    const result = capture(pieces(Buffer.from(text), [4096, 333, 65_536, 1]));
    const half = RUN_STREAM_MAX_BYTES / 2;
    const [head, tail] = result.text.split(/\n\[\.\.\. \d+ bytes left out of \d+: .*\.\.\.\]\n/);
    expect(head).toBe(text.slice(0, half));
    expect(tail).toBe(text.slice(text.length - half));
    expect(result.omittedBytes).toBe(text.length - 2 * half);
    expect(result.text).toContain(`[... ${text.length - 2 * half} bytes left out of ${text.length}:`);
  });

  it('never cuts a multi-byte character at either side of the marker', () => {
    // 'é' is 2 bytes and '€' 3; with an odd prefix the cuts fall mid-character.
    const text = 'x' + 'é€'.repeat(30_000);
    const result = capture(pieces(Buffer.from(text), [5, 4099]));
    expect(result.text).not.toContain('\uFFFD');
    const [head = '', tail = ''] = result.text.split(/\n\[\.\.\..*\.\.\.\]\n/);
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    const total = Buffer.byteLength(text);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail) + result.omittedBytes).toBe(total);
    expect(Buffer.byteLength(head)).toBeGreaterThan(RUN_STREAM_MAX_BYTES / 2 - 3);
  });

  it('tracks the tail through a chunk larger than the whole tail buffer', () => {
    const big = Buffer.from('b'.repeat(200_000) + 'THE END');
    const result = capture([Buffer.from('start'), big]);
    expect(result.text.startsWith('start')).toBe(true);
    expect(result.text.endsWith('THE END')).toBe(true);
    expect(result.totalBytes).toBe(5 + big.length);
  });

  it('honours a smaller budget', () => {
    const result = capture([Buffer.from('0123456789abcdefghij')], 10);
    expect(result.text.startsWith('01234\n')).toBe(true);
    expect(result.text.endsWith('\nfghij')).toBe(true);
    expect(result.omittedBytes).toBe(10);
  });
});

describe('capText', () => {
  it('returns text within the cap as it is', () => {
    expect(capText('short', 100)).toBe('short');
  });

  it('keeps head and tail of longer text, never splitting a character', () => {
    // 4-byte characters throughout: any byte cut would land inside one.
    const text = '🙂'.repeat(1000);
    const capped = capText(text, 1001);
    const [head = '', tail = ''] = capped.split(/\n\[\.\.\. \d+ bytes left out of 4000: .*\.\.\.\]\n/);
    expect(head).toMatch(/^(🙂)+$/u);
    expect(tail).toMatch(/^(🙂)+$/u);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(1001);
    expect(capped).not.toContain('\uFFFD');
  });
});
