/** The fake model's OpenAI automatic prefix caching, through the real @ai-sdk/openai provider. */
import type { ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModel } from '../../fake-model/server.js';
import { openaiModel, step } from './sdk-step.js';
import { ENGLISH } from './token-samples.js';

/** About 1,600 tokens: over the 1,024-token minimum on its own. */
const SYSTEM = `You are a careful assistant. ${ENGLISH.repeat(8)}`;

function turns(...texts: string[]): ModelMessage[] {
  return texts.flatMap((text, index): ModelMessage[] =>
    index === texts.length - 1
      ? [{ role: 'user', content: text }]
      : [
          { role: 'user', content: text },
          { role: 'assistant', content: `Noted: ${text}` },
        ],
  );
}

describe('fake model OpenAI prompt cache', () => {
  let fake: FakeModel;

  beforeEach(async () => {
    fake = await startFakeModel();
  });

  afterEach(async () => {
    await fake.close();
  });

  it('reads a prefix seen before, in 128-token increments, and records prompt_cache_key', async () => {
    fake.enqueue({ text: 'Noted.' }, { text: 'Done.' });
    const providerOptions = { openai: { promptCacheKey: 'session-1' } };

    const first = await step(openaiModel(fake), {
      instructions: SYSTEM,
      messages: turns('Read a.txt'),
      providerOptions,
    });
    const second = await step(openaiModel(fake), {
      instructions: SYSTEM,
      messages: turns('Read a.txt', 'Now b.txt'),
      providerOptions,
    });

    const [one, two] = fake.requests;
    expect(first.usage?.inputTokenDetails).toEqual({
      noCacheTokens: one!.inputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: undefined,
    });
    const read = Math.floor(one!.inputTokens / 128) * 128;
    expect(read).toBeGreaterThanOrEqual(1024);
    expect(second.usage?.inputTokens).toBe(two!.inputTokens);
    expect(second.usage?.inputTokenDetails).toEqual({
      noCacheTokens: two!.inputTokens - read,
      cacheReadTokens: read,
      cacheWriteTokens: undefined,
    });
    expect(fake.requests.map((request) => request.promptCacheKey)).toEqual(['session-1', 'session-1']);
  });

  it('reads nothing when the first message changed', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });

    await step(openaiModel(fake), { instructions: SYSTEM, messages: turns('Read a.txt') });
    const second = await step(openaiModel(fake), {
      instructions: `y${SYSTEM.slice(1)}`,
      messages: turns('Read a.txt'),
    });

    expect(second.usage?.inputTokenDetails.cacheReadTokens).toBe(0);
    expect(fake.requests[1]!.promptCacheKey).toBeUndefined();
  });

  it('caches no prompt shorter than 1,024 tokens', async () => {
    fake.enqueue({ text: 'a' }, { text: 'b' });

    await step(openaiModel(fake), { instructions: 'Be brief.', messages: turns('Hi') });
    const second = await step(openaiModel(fake), { instructions: 'Be brief.', messages: turns('Hi') });

    expect(fake.requests[0]!.inputTokens).toBeLessThan(1024);
    expect(second.usage?.inputTokenDetails.cacheReadTokens).toBe(0);
  });
});
