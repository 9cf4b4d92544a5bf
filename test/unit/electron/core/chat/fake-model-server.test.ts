/** The fake model itself: it must speak the wire formats the way the tests claim. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeTokenCount, startFakeModel, type FakeModel, type RecordedRequest } from '../../../../fake-model/server.js';

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

  /** The text of the last user message of an Anthropic or OpenAI body. */
  function lastUserText(request: RecordedRequest): string {
    const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
    return messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  }

  it('asks the responder first, and takes the script when it has no answer', async () => {
    fake.enqueue({ text: 'step one' }, { text: 'step two' });
    fake.setResponder((request) =>
      lastUserText(request).startsWith('Summarize') ? { text: 'the summary' } : undefined,
    );
    const ask = async (content: string) => {
      const sse = await (await post('/v1/chat/completions', { messages: [{ role: 'user', content }] })).text();
      return dataLines(sse)
        .map((chunk) => (chunk as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
        .join('');
    };

    expect(await ask('Go on')).toBe('step one');
    expect(await ask('Summarize the work so far')).toBe('the summary');
    expect(await ask('Go on')).toBe('step two');
    fake.setResponder(undefined);
    expect((await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'Summarize' }] })).status).toBe(
      500,
    );
  });

  it('counts the reply with the same tokenizer when the script gives no usage', async () => {
    const text = 'The README describes Gatehouse, a permission gate for coding agents.';
    const input = { path: 'docs/README.md' };
    fake.enqueue({ text, toolCalls: [{ name: 'read_file', input }] });

    const sse = await (await post('/v1/messages', { messages: [{ role: 'user', content: 'What is this?' }] })).text();

    type Event = { type: string; message?: { usage: Record<string, number> }; usage?: { output_tokens: number } };
    const events = dataLines(sse) as Event[];
    expect(events.find((event) => event.type === 'message_start')?.message?.usage).toEqual({
      input_tokens: fake.requests[0]!.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    });
    expect(events.find((event) => event.type === 'message_delta')?.usage?.output_tokens).toBe(
      fakeTokenCount(text) + fakeTokenCount('read_file') + fakeTokenCount(JSON.stringify(input)),
    );
  });
});

describe('fake model server without bodies', () => {
  it('still counts every request, and shows the responder the body', async () => {
    const fake = await startFakeModel({ keepBodies: false, contextWindow: 500 });
    try {
      const seen: unknown[] = [];
      fake.setResponder((request) => {
        seen.push(request.body);
        return undefined;
      });
      fake.enqueue({ text: 'a' }, { text: 'b' });
      const send = (content: string) =>
        fetch(`${fake.anthropicBaseURL}/messages`, {
          method: 'POST',
          body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }),
        }).then((response) => response.text());

      await send('short');
      await send('a longer question about the river and the mill');
      await send('word '.repeat(1000));

      const [one, two, three] = fake.requests;
      expect(fake.requests.map((request) => request.body)).toEqual([undefined, undefined, undefined]);
      expect(seen).toEqual([
        { model: 'm', messages: [{ role: 'user', content: 'short' }] },
        { model: 'm', messages: [{ role: 'user', content: 'a longer question about the river and the mill' }] },
      ]);
      expect(three!.refused).toBe('context-window');
      expect(fake.stats()).toEqual({
        requests: 3,
        refused: 1,
        inputTokens: one!.inputTokens + two!.inputTokens + three!.inputTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: fakeTokenCount('a') + fakeTokenCount('b'),
        peakInputTokens: three!.inputTokens,
      });
    } finally {
      await fake.close();
    }
  });
});
