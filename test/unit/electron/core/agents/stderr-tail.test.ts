/**
 * The last of an agent's stderr, for "the agent stopped: …": bounded, its last lines, and
 * never the key's value, even split across chunks or cut at the front.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { keepStderrTail } from '../../../../../electron/core/agents/stderr-tail.js';

const KEY = 'sk-ant-0123456789abcdef';

async function fed(chunks: string[], secrets = [KEY]): Promise<string> {
  const stream = new PassThrough();
  const tail = keepStderrTail(stream, secrets);
  for (const chunk of chunks) stream.write(chunk);
  await new Promise((resolve) => setImmediate(resolve));
  return tail.text();
}

describe('keepStderrTail', () => {
  it('keeps the last 20 lines', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    expect((await fed([lines.join('\n') + '\n'])).split('\n')).toEqual(lines.slice(10));
  });

  it('takes the key out, even when it came in two chunks', async () => {
    expect(await fed(['error: bad key sk-ant-0123', '456789abcdef\nbye\n'])).toBe('error: bad key [key]\nbye');
  });

  it('drops a line cut at the front, which may hold the end of a key', async () => {
    const text = await fed([`x${KEY}`, '.'.repeat(16 * 1024 - 16), '\nlast\n']);
    expect(text).not.toContain('abcdef');
    expect(text).toBe('last');
  });
});
