/** The fake model itself: it must speak the wire formats the way the tests claim. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModel } from '../../../../fake-model/server.js';

function dataLines(sse: string): unknown[] {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

describe('fake model server', () => {
  let fake: FakeModel;

  beforeEach(async () => {
    fake = await startFakeModel();
  });

  afterEach(async () => {
    await fake.close();
  });

  const post = (path: string, body: unknown = {}): Promise<Response> =>
    fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('splits Anthropic tool input across several input_json_delta events', async () => {
    fake.enqueue({ toolCalls: [{ id: 't1', name: 'read_file', input: { path: 'a/b/c.txt' } }] });

    const sse = await (await post('/v1/messages')).text();

    const pieces = dataLines(sse)
      .map((event) => event as { delta?: { type: string; partial_json?: string } })
      .filter((event) => event.delta?.type === 'input_json_delta')
      .map((event) => event.delta!.partial_json);
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(''))).toEqual({ path: 'a/b/c.txt' });
    expect(sse).toContain('event: message_stop');
  });

  it('names an OpenAI tool call first and streams its arguments in later chunks', async () => {
    fake.enqueue({ toolCalls: [{ id: 't1', name: 'read_file', input: { path: 'a/b/c.txt' } }] });

    const sse = await (await post('/v1/chat/completions')).text();

    type Chunk = {
      choices: { delta: { tool_calls?: { id?: string; function: { name?: string; arguments?: string } }[] } }[];
    };
    const calls = dataLines(sse).flatMap((chunk) =>
      (chunk as Chunk).choices.flatMap((choice) => choice.delta.tool_calls ?? []),
    );
    expect(calls[0]).toMatchObject({ id: 't1', function: { name: 'read_file', arguments: '' } });
    expect(calls.length).toBeGreaterThan(2);
    expect(JSON.parse(calls.map((call) => call.function.arguments ?? '').join(''))).toEqual({ path: 'a/b/c.txt' });
    expect(sse.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('answers at a base URL without /v1 too', async () => {
    fake.enqueue({ text: 'hi' }, { text: 'hi' });

    expect((await post('/messages')).status).toBe(200);
    expect((await post('/chat/completions')).status).toBe(200);
    expect(fake.requests.map((request) => request.wire)).toEqual(['anthropic', 'openai']);
  });

  it('fails loudly when the script has run out', async () => {
    const response = await post('/v1/messages', { model: 'm' });

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'fake model: no scripted reply left for request #0 (POST /v1/messages)' },
    });
  });

  it('records the method, path, headers and parsed body of every request', async () => {
    fake.enqueue({ text: 'hi' });

    await (await post('/v1/chat/completions?x=1', { model: 'gpt', stream: true })).text();

    expect(fake.requests).toEqual([
      expect.objectContaining({
        index: 0,
        method: 'POST',
        path: '/v1/chat/completions',
        body: { model: 'gpt', stream: true },
        wire: 'openai',
        clientAborted: false,
      }),
    ]);
    expect(fake.requests[0]!.headers['content-type']).toBe('application/json');
    expect(fake.pending()).toBe(0);
  });
});
