/** The fake model in its own process (benchmarks): options, the window and totals over IPC. */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelProcess, type FakeModelProcess } from '../../fake-model/fake-model-process.js';

describe('fake model process', () => {
  let fake: FakeModelProcess | undefined;

  afterEach(async () => {
    await fake?.close();
  });

  const send = (content: string): Promise<number> =>
    fetch(`${fake!.anthropicBaseURL}/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }),
    }).then(async (response) => {
      await response.text();
      return response.status;
    });

  it('takes a context window at start and later, and reports totals', async () => {
    fake = await startFakeModelProcess({ contextWindow: 10 });
    fake.enqueue({ text: 'ok' }, { text: 'ok' });

    expect(await send('word '.repeat(50))).toBe(400);
    fake.setContextWindow(undefined);
    expect(await send('word '.repeat(50))).toBe(200);
    fake.setContextWindow(100);
    expect(await send('word '.repeat(50))).toBe(200);

    const stats = await fake.stats();
    expect(stats).toMatchObject({ requests: 3, refused: 1 });
    expect(stats.inputTokens).toBe(3 * stats.peakInputTokens);
    expect(await fake.status()).toEqual({ pending: 0, requests: 3 });
  });
});
