/**
 * A terminal's output is pushed in batches: after TERMINAL_FLUSH_MS, or at once when
 * TERMINAL_FLUSH_BYTES are waiting, so the buffer never holds more than one push.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutputCoalescer } from '../../../../../electron/core/terminal/output-coalescer.js';
import { TERMINAL_FLUSH_BYTES, TERMINAL_FLUSH_MS } from '../../../../../shared/limits.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('OutputCoalescer', () => {
  it('gathers small pieces read within the flush interval into one push, in order', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    for (let i = 0; i < 1000; i++) c.add(`${i},`);
    expect(pushes).toEqual([]);
    vi.advanceTimersByTime(TERMINAL_FLUSH_MS - 1);
    expect(pushes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(pushes).toEqual([Array.from({ length: 1000 }, (_, i) => `${i},`).join('')]);
  });

  it('pushes at once when the flush size is reached, without waiting for the timer', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('x'.repeat(TERMINAL_FLUSH_BYTES - 1));
    expect(pushes).toHaveLength(0);
    c.add('y');
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toHaveLength(TERMINAL_FLUSH_BYTES);
  });

  it('counts bytes, not characters, so multi-byte output flushes at the same size', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('é'.repeat(TERMINAL_FLUSH_BYTES / 2));
    expect(pushes).toHaveLength(1);
  });

  it('never holds more than one flush of a flood that nobody reads', () => {
    let held = 0;
    const c = new OutputCoalescer((data) => (held = Math.max(held, Buffer.byteLength(data))));
    for (let i = 0; i < 10_000; i++) c.add('z'.repeat(1000));
    expect(held).toBeLessThan(TERMINAL_FLUSH_BYTES + 1000);
  });

  it('pushes nothing for empty reads and nothing twice', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('');
    c.flush();
    vi.advanceTimersByTime(100);
    expect(pushes).toEqual([]);
    c.add('a');
    c.flush();
    vi.advanceTimersByTime(100);
    expect(pushes).toEqual(['a']);
  });
});
