/**
 * The fake model's Anthropic prompt cache, through the real @ai-sdk/anthropic provider where
 * the SDK can say it (cacheControl provider options) and raw requests where the test needs
 * exact blocks (the 20-block lookback, a fifth breakpoint the SDK would drop).
 */
import type { ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeModel, type FakeModel } from '../../fake-model/server.js';
import { anthropicModel, step, type StepOptions } from './sdk-step.js';
import { ENGLISH } from './token-samples.js';

const cached = { anthropic: { cacheControl: { type: 'ephemeral' } } };
/** About 1,600 tokens: over the 1,024-token minimum on its own. */
const SYSTEM = `You are a careful assistant. ${ENGLISH.repeat(8)}`;

/** A system prompt with a breakpoint, earlier turns, and the last user message (with or without one). */
function conversation(system: string, turns: string[], last: { cache: boolean; tail?: string }): StepOptions {
  const messages: ModelMessage[] = [];
  for (const [index, text] of turns.entries()) {
    const isLast = index === turns.length - 1;
    if (!isLast) {
      messages.push({ role: 'user', content: text }, { role: 'assistant', content: `Noted: ${text}` });
      continue;
    }
    messages.push({
      role: 'user',
      content: [
        { type: 'text', text, ...(last.cache ? { providerOptions: cached } : {}) },
        ...(last.tail ? [{ type: 'text' as const, text: last.tail }] : []),
      ],
    });
  }
  return { instructions: [{ role: 'system', content: system, providerOptions: cached }], messages };
}

interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

describe('fake model Anthropic prompt cache', () => {
  let fake: FakeModel;

  beforeEach(async () => {
    fake = await startFakeModel();
  });

  afterEach(async () => {
    await fake.close();
  });

  /** A raw Messages request; the usage of its message_start event. */
  async function usageOf(body: Record<string, unknown>): Promise<AnthropicUsage> {
    fake.enqueue({ text: 'ok' });
    const response = await fetch(`${fake.anthropicBaseURL}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-test', max_tokens: 100, stream: true, ...body }),
    });
    const sse = await response.text();
    const line = sse.split('\n').find((text) => text.startsWith('data: {"type":"message_start"'));
    return (JSON.parse(line!.slice('data: '.length)) as { message: { usage: AnthropicUsage } }).message.usage;
  }

  const mark = { type: 'ephemeral' };
  const text = (value: string, breakpoint = false) => ({
    type: 'text',
    text: value,
    ...(breakpoint ? { cache_control: mark } : {}),
  });

  it('writes the prefix up to the last breakpoint, then reads it and writes only the new part', async () => {
    fake.enqueue({ text: 'Noted.' }, { text: 'Done.' });

    const first = await step(anthropicModel(fake), conversation(SYSTEM, ['Read a.txt'], { cache: true }));
    const second = await step(
      anthropicModel(fake),
      conversation(SYSTEM, ['Read a.txt', 'Now b.txt'], { cache: true, tail: 'and be brief' }),
    );

    const [one, two] = fake.requests;
    // First: nothing cached yet; everything up to the breakpoint on the last block is written.
    expect(first.usage?.inputTokenDetails).toEqual({
      noCacheTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: one!.inputTokens,
    });
    expect(first.usage?.inputTokens).toBe(one!.inputTokens);
    // Second: the first prefix is read (found by looking back from the new breakpoint), the
    // new turn up to the breakpoint is written, and the unmarked tail is plain input.
    const tail = two!.inputTokens - second.usage!.inputTokenDetails.cacheReadTokens! - two!.cacheWriteTokens;
    expect(second.usage?.inputTokenDetails).toEqual({
      noCacheTokens: tail,
      cacheReadTokens: one!.inputTokens,
      cacheWriteTokens: two!.cacheWriteTokens,
    });
    expect(tail).toBeGreaterThan(0);
    expect(two!.cacheWriteTokens).toBeGreaterThan(0);
    expect(second.usage?.inputTokens).toBe(two!.inputTokens);
    expect(two!.cacheReadTokens).toBe(one!.inputTokens);
  });

  it('reads nothing when one early byte changed', async () => {
    fake.enqueue({ text: 'Noted.' }, { text: 'Noted.' });

    await step(anthropicModel(fake), conversation(SYSTEM, ['Read a.txt'], { cache: true }));
    const changed = `y${SYSTEM.slice(1)}`;
    const second = await step(anthropicModel(fake), conversation(changed, ['Read a.txt'], { cache: true }));

    expect(second.usage?.inputTokenDetails).toEqual({
      noCacheTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: fake.requests[1]!.inputTokens,
    });
  });

  it('keys the cache by content, not position: the same blocks under other tools miss', async () => {
    const readFile = (description: string) => ({
      read_file: {
        description,
        inputSchema: z.object({ path: z.string() }),
        providerOptions: cached,
      },
    });
    fake.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const prompt = conversation(SYSTEM, ['Read a.txt'], { cache: true });

    await step(anthropicModel(fake), { ...prompt, tools: readFile('Read a file.') });
    const same = await step(anthropicModel(fake), { ...prompt, tools: readFile('Read a file.') });
    const other = await step(anthropicModel(fake), { ...prompt, tools: readFile('Read one file.') });

    expect(same.usage?.inputTokenDetails.cacheReadTokens).toBe(fake.requests[0]!.inputTokens);
    expect(same.usage?.inputTokenDetails.cacheWriteTokens).toBe(0);
    expect(other.usage?.inputTokenDetails.cacheReadTokens).toBe(0);
  });

  it('looks back about 20 blocks from a breakpoint, no further', async () => {
    const system = [text(SYSTEM)];
    const start = [{ role: 'user', content: [text('Start.', true)] }];
    const blocks = (count: number) => Array.from({ length: count }, (_, index) => text(`Step ${index}.`));
    const later = (count: number) => [
      { role: 'user', content: [text('Start.'), ...blocks(count - 1), text('Go on.', true)] },
    ];

    const written = await usageOf({ system, messages: start });
    const near = await usageOf({ system, messages: later(10) });
    const far = await usageOf({ system, messages: later(25) });

    const cachedPrefix = written.cache_creation_input_tokens;
    expect(cachedPrefix).toBeGreaterThan(1024);
    expect(near.cache_read_input_tokens).toBe(cachedPrefix);
    expect(far.cache_read_input_tokens).toBe(0);
    expect(far.cache_creation_input_tokens).toBe(fake.requests[2]!.inputTokens);
  });

  it('reads through an earlier breakpoint when the last one is too far', async () => {
    const system = [text(SYSTEM, true)];
    const messages = [
      { role: 'user', content: [text('Start.'), ...Array.from({ length: 30 }, (_, i) => text(`Step ${i}.`))] },
    ];
    await usageOf({ system, messages: [{ role: 'user', content: [text('Hello.', true)] }] });

    const usage = await usageOf({ system, messages: [...messages, { role: 'user', content: [text('End.', true)] }] });

    // The system breakpoint still finds its own prefix: the tools-and-system part is read.
    expect(usage.cache_read_input_tokens).toBeGreaterThan(1024);
    expect(usage.cache_read_input_tokens).toBeLessThan(fake.requests[0]!.inputTokens);
  });

  it('caches nothing shorter than the minimum', async () => {
    const short = { messages: [{ role: 'user', content: [text('A short question.', true)] }] };

    const first = await usageOf(short);
    const second = await usageOf(short);

    expect(first).toEqual({
      input_tokens: fake.requests[0]!.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    });
    expect(second.cache_read_input_tokens).toBe(0);
  });

  it('honours a lower minimum', async () => {
    const small = await startFakeModel({ minCacheTokens: 5 });
    try {
      small.enqueue({ text: 'a' }, { text: 'b' });
      const prompt = conversation('Be brief.', ['A short question.'], { cache: true });
      const model = anthropicModel(small);

      await step(model, prompt);
      const second = await step(model, prompt);

      expect(second.usage?.inputTokenDetails.cacheReadTokens).toBe(small.requests[0]!.inputTokens);
    } finally {
      await small.close();
    }
  });

  it('refuses a fifth breakpoint with the API’s 400 and uses no scripted reply', async () => {
    fake.enqueue({ text: 'unused' });
    const response = await fetch(`${fake.anthropicBaseURL}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-test',
        max_tokens: 100,
        system: [text('a', true), text('b', true)],
        messages: [{ role: 'user', content: [text('c', true), text('d', true), text('e', true)] }],
      }),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
      },
    });
    expect(fake.requests[0]!.refused).toBe('invalid');
    expect(fake.pending()).toBe(1);
  });

  it('keeps a scripted usage as it is', async () => {
    fake.enqueue({ text: 'a', usage: { inputTokens: 42, outputTokens: 7 } });

    const outcome = await step(anthropicModel(fake), conversation(SYSTEM, ['Hi'], { cache: true }));

    expect(outcome.usage?.inputTokens).toBe(42);
    expect(outcome.usage?.outputTokens).toBe(7);
    // The cache still did its work: the server records it.
    expect(fake.requests[0]!.cacheWriteTokens).toBe(fake.requests[0]!.inputTokens);
  });
});
