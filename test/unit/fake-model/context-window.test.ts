/**
 * The fake model's context window: a request over it gets the real API's 400, which the AI
 * SDK surfaces as an APICallError, and no scripted reply is used up.
 */
import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeModel, type FakeModel } from '../../fake-model/server.js';
import { anthropicModel, openaiModel, step } from './sdk-step.js';
import { ENGLISH } from './token-samples.js';

const LONG = ENGLISH.repeat(20); // about 4,000 tokens

describe('fake model context window', () => {
  let fake: FakeModel;

  afterEach(async () => {
    await fake.close();
  });

  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers an Anthropic request over the window with "prompt is too long"', async () => {
    fake = await startFakeModel({ contextWindow: 1000 });
    fake.enqueue({ text: 'unused' });

    const response = await post('/v1/messages', { model: 'm', messages: [{ role: 'user', content: LONG }] });

    const counted = fake.requests[0]!.inputTokens;
    expect(counted).toBeGreaterThan(1000);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${counted} tokens > 1000 maximum` },
    });
    expect(fake.requests[0]!.refused).toBe('context-window');
    expect(fake.pending()).toBe(1);
  });

  it('answers an OpenAI request over the window with context_length_exceeded', async () => {
    fake = await startFakeModel({ contextWindow: 1000 });

    const response = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: LONG }] });

    const counted = fake.requests[0]!.inputTokens;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: `This model's maximum context length is 1000 tokens. However, your messages resulted in ${counted} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });
  });

  it('splits the OpenAI count between messages and functions when the request has tools', async () => {
    fake = await startFakeModel({ contextWindow: 1000 });
    const tool = { type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } };

    const response = await post('/v1/chat/completions', {
      model: 'm',
      tools: [tool],
      messages: [{ role: 'user', content: LONG }],
    });

    const { error } = (await response.json()) as { error: { message: string } };
    const match =
      /resulted in (\d+) tokens \((\d+) in the messages, (\d+) in the functions\)\. Please reduce the length of the messages or functions\.$/.exec(
        error.message,
      );
    expect(match).not.toBeNull();
    const [, total, messages, functions] = match!.map(Number);
    expect(total).toBe(fake.requests[0]!.inputTokens);
    expect(messages! + functions!).toBe(total);
    expect(functions).toBeGreaterThan(0);
  });

  it.each([
    { name: 'anthropic', model: anthropicModel, says: /^prompt is too long: \d+ tokens > 1000 maximum$/ },
    { name: 'openai', model: openaiModel, says: /^This model's maximum context length is 1000 tokens\./ },
  ])('reaches the AI SDK ($name) as an APICallError with status 400', async ({ model, says }) => {
    fake = await startFakeModel({ contextWindow: 1000 });

    const outcome = await step(model(fake), {
      messages: [{ role: 'user', content: LONG }],
      tools: { read_file: { description: 'Read a file.', inputSchema: z.object({ path: z.string() }) } },
    });

    expect(APICallError.isInstance(outcome.error)).toBe(true);
    const error = outcome.error as APICallError;
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(says);
    expect(error.isRetryable).toBe(false);
  });

  it('takes a window changed under a live session from the next request on', async () => {
    fake = await startFakeModel({ contextWindow: 100_000 });
    fake.enqueue({ text: 'first' }, { text: 'third' });
    const messages = [{ role: 'user' as const, content: LONG }];

    const first = await step(anthropicModel(fake), { messages });
    fake.setContextWindow(2000);
    const second = await step(anthropicModel(fake), { messages });
    fake.setContextWindow(undefined);
    const third = await step(anthropicModel(fake), { messages });

    expect(first.usage?.inputTokens).toBe(fake.requests[0]!.inputTokens);
    expect((second.error as APICallError).message).toBe(
      `prompt is too long: ${fake.requests[1]!.inputTokens} tokens > 2000 maximum`,
    );
    expect(third.usage?.inputTokens).toBe(fake.requests[2]!.inputTokens);
    expect(fake.requests.map((request) => request.refused)).toEqual([undefined, 'context-window', undefined]);
    expect(fake.pending()).toBe(0);
  });

  it('lets a request exactly at the window through', async () => {
    fake = await startFakeModel();
    fake.enqueue({ text: 'a' }, { text: 'b' });
    const body = { model: 'm', messages: [{ role: 'user', content: LONG }] };
    await (await post('/v1/messages', body)).text();
    fake.setContextWindow(fake.requests[0]!.inputTokens);

    expect((await post('/v1/messages', body)).status).toBe(200);
  });
});
