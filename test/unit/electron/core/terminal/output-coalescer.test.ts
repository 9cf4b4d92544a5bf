/**
 * A terminal's output is pushed in batches: output after a quiet spell at once, what
 * follows within TERMINAL_FLUSH_MS in one push at the window's end, or sooner when
 * TERMINAL_FLUSH_BYTES are waiting, so the buffer never holds more than one push.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutputCoalescer } from '../../../../../electron/core/terminal/output-coalescer.js';
import { TERMINAL_FLUSH_BYTES, TERMINAL_FLUSH_MS } from '../../../../../shared/limits.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('OutputCoalescer', () => {
  it('pushes output after a quiet spell at once, so the echo of a keystroke does not wait', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('a');
    expect(pushes).toEqual(['a']);
    vi.advanceTimersByTime(TERMINAL_FLUSH_MS);
    c.add('b');
    expect(pushes).toEqual(['a', 'b']);
  });

  it('gathers what follows within the window into one push at its end, in order', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('first;');
    for (let i = 0; i < 1000; i++) c.add(`${i},`);
    expect(pushes).toEqual(['first;']);
    vi.advanceTimersByTime(TERMINAL_FLUSH_MS - 1);
    expect(pushes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(pushes).toEqual(['first;', Array.from({ length: 1000 }, (_, i) => `${i},`).join('')]);
  });

  it('pushes at once when the flush size is reached, and no push is larger than that', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('start');
    c.add('x'.repeat(TERMINAL_FLUSH_BYTES - 1));
    expect(pushes).toEqual(['start']);
    c.add('y');
    expect(pushes).toHaveLength(2);
    expect(pushes[1]).toHaveLength(TERMINAL_FLUSH_BYTES);
    c.add('x'.repeat(TERMINAL_FLUSH_BYTES - 10));
    c.add('z'.repeat(20));
    expect(pushes.map((p) => p.length)).toEqual([5, TERMINAL_FLUSH_BYTES, TERMINAL_FLUSH_BYTES - 10]);
  });

  it('counts bytes, not characters, so multi-byte output flushes at the same size', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('start');
    c.add('é'.repeat(TERMINAL_FLUSH_BYTES / 2));
    expect(pushes).toHaveLength(2);
  });

  it('never holds more than one flush of a flood that nobody reads', () => {
    let held = 0;
    const c = new OutputCoalescer((data) => (held = Math.max(held, Buffer.byteLength(data))));
    for (let i = 0; i < 10_000; i++) c.add('z'.repeat(1000));
    expect(held).toBeLessThanOrEqual(TERMINAL_FLUSH_BYTES);
  });

  it('pushes nothing for empty reads and nothing twice', () => {
    const pushes: string[] = [];
    const c = new OutputCoalescer((data) => pushes.push(data));
    c.add('');
    c.flush();
    vi.advanceTimersByTime(100);
    expect(pushes).toEqual([]);
    c.add('a');
    c.add('b');
    c.flush();
    vi.advanceTimersByTime(100);
    expect(pushes).toEqual(['a', 'b']);
  });
});
