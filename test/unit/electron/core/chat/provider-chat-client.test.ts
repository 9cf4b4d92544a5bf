/**
 * The chat client against the fake model server, through the real AI SDK providers and
 * real HTTP, for each of the three providers.
 */
import type { ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RetryNotice, StepRequest } from '../../../../../electron/core/chat/chat-client.js';
import { ChatError } from '../../../../../electron/core/chat/chat-error.js';
import { ProviderChatClient } from '../../../../../electron/core/chat/provider-chat-client.js';
import { createHold, startFakeModel, type FakeModel } from '../../../../fake-model/server.js';
import { API_KEY, providerCases, type ProviderCase } from './provider-cases.js';

const SYSTEM = 'You are Gatehouse. Work only inside the workspace.';

const tools: StepRequest['tools'] = {
  read_file: {
    description: 'Read a text file in the workspace.',
    inputSchema: z.strictObject({ path: z.string(), offset: z.number().int().optional() }),
  },
  list_dir: {
    description: 'List a folder in the workspace.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

function userAsks(text: string): ModelMessage[] {
  return [{ role: 'user', content: text }];
}

/** A request that also records what the client streamed and announced. */
function stepRequest(overrides: Partial<StepRequest> = {}): StepRequest & { deltas: string[]; retries: RetryNotice[] } {
  const deltas: string[] = [];
  const retries: RetryNotice[] = [];
  return {
    system: SYSTEM,
    messages: userAsks('What is in README.md?'),
    tools,
    signal: new AbortController().signal,
    onTextDelta: (delta) => deltas.push(delta),
    onRetry: (notice) => retries.push(notice),
    deltas,
    retries,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<ChatError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ChatError);
  return error as ChatError;
}

describe.each(providerCases)('ProviderChatClient with $name', (provider: ProviderCase) => {
  let fake: FakeModel;

  beforeEach(async () => {
    fake = await startFakeModel();
  });

  afterEach(async () => {
    await fake.close();
  });

  function client(retry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 }): ProviderChatClient {
    return new ProviderChatClient({
      config: provider.config(fake),
      env: provider.env,
      keys: { get: async (name) => (name === provider.name ? provider.storedKey : undefined) },
      retry,
    });
  }

  it('streams a text reply, delivering the deltas in order', async () => {
    fake.enqueue({ text: ['The README ', 'describes ', 'Gatehouse.'], usage: { inputTokens: 42, outputTokens: 7 } });
    const request = stepRequest();

    const result = await client().step(request);

    expect(request.deltas).toEqual(['The README ', 'describes ', 'Gatehouse.']);
    expect(result.text).toBe('The README describes Gatehouse.');
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 42, outputTokens: 7 });
  });

  it('returns a tool call whose input arrived split across several chunks', async () => {
    const input = { path: 'docs/a long name/README.md', offset: 120 };
    fake.enqueue({ toolCalls: [{ id: 'call_read', name: 'read_file', input }] });

    const result = await client().step(stepRequest());

    expect(result.toolCalls).toEqual([{ toolCallId: 'call_read', toolName: 'read_file', input }]);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.text).toBe('');
  });

  it('returns two tool calls from one step, after the text that preceded them', async () => {
    fake.enqueue({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_1', name: 'read_file', input: { path: 'a.txt' } },
        { id: 'call_2', name: 'list_dir', input: { path: 'src' } },
      ],
    });

    const result = await client().step(stepRequest());

    expect(result.text).toBe('Let me look.');
    expect(result.toolCalls).toEqual([
      { toolCallId: 'call_1', toolName: 'read_file', input: { path: 'a.txt' } },
      { toolCallId: 'call_2', toolName: 'list_dir', input: { path: 'src' } },
    ]);
    expect(result.assistantMessage.role).toBe('assistant');
    // Anthropic adds a provider 'custom' part (message metadata) that the SDK sends back as-is.
    const content = result.assistantMessage.content as { type: string }[];
    expect(content.filter((part) => part.type !== 'custom')).toEqual([
      expect.objectContaining({ type: 'text', text: 'Let me look.' }),
      expect.objectContaining({ type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file' }),
      expect.objectContaining({ type: 'tool-call', toolCallId: 'call_2', toolName: 'list_dir' }),
    ]);
  });

  it('sends the system prompt, the history with earlier tool calls and results, and the tool definitions', async () => {
    fake.enqueue({ text: 'Done.' });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading it.' },
          { type: 'tool-call', toolCallId: 'call_prev', toolName: 'read_file', input: { path: 'a.txt' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_prev',
            toolName: 'read_file',
            output: { type: 'text', value: 'contents of a.txt' },
          },
        ],
      },
    ];

    await client().step(stepRequest({ messages }));

    expect(fake.requests).toHaveLength(1);
    const sent = provider.read(fake.requests[0]!);
    expect(sent.system).toBe(SYSTEM);
    expect(sent.roles).toEqual(
      provider.name === 'anthropic' ? ['user', 'assistant', 'user'] : ['user', 'assistant', 'tool'],
    );
    expect(sent.priorCalls).toEqual([{ id: 'call_prev', name: 'read_file', input: { path: 'a.txt' } }]);
    expect(sent.priorResults).toEqual([{ id: 'call_prev', text: 'contents of a.txt' }]);
    expect(sent.toolNames).toEqual(['read_file', 'list_dir']);
    expect(sent.toolDescriptions).toEqual(['Read a text file in the workspace.', 'List a folder in the workspace.']);
    expect(sent.toolSchemas[0]).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer' } },
      required: ['path'],
    });
    expect(sent.toolSchemas[1]).toMatchObject({ properties: { path: { type: 'string' } }, required: ['path'] });
  });

  it("writes the cache breakpoints in the provider's own format: Anthropic's cache_control, none for OpenAI", async () => {
    fake.enqueue({ text: 'Done.' });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'second' },
    ];
    await client().step(stepRequest({ messages, cacheBreakpoints: { system: true, messages: [0, 2] } }));

    const raw = fake.requests[0]!.rawBody;
    if (provider.name !== 'anthropic') {
      expect(raw).not.toContain('cache_control');
      return;
    }
    const body = fake.requests[0]!.body as {
      system: Array<{ cache_control?: unknown }>;
      messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
    };
    const marked = (blocks: Array<{ cache_control?: unknown }>) => blocks.some((b) => b.cache_control !== undefined);
    expect(marked(body.system)).toBe(true);
    expect(body.messages.map((m) => marked(m.content))).toEqual([true, false, true]);
    expect(messages.every((m) => m.providerOptions === undefined)).toBe(true);
  });

  it('sends the key in its header and nowhere else', async () => {
    fake.enqueue({ text: 'hi' });

    await client().step(stepRequest());

    const [request] = fake.requests;
    expect(request!.headers[provider.keyHeader.name]).toBe(provider.keyHeader.value);
    const elsewhere = Object.entries(request!.headers).filter(([name]) => name !== provider.keyHeader.name);
    expect(JSON.stringify(elsewhere)).not.toContain(API_KEY);
    expect(request!.rawBody).not.toContain(API_KEY);
    expect(request!.path).not.toContain(API_KEY);
  });

  it('returns malformed tool-call JSON as a tool call with an error the model can read', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_bad', name: 'read_file', rawInput: '{"path": "a.txt' }] });

    const result = await client().step(stepRequest());

    expect(result.toolCalls).toHaveLength(1);
    const [call] = result.toolCalls;
    expect(call).toMatchObject({ toolCallId: 'call_bad', toolName: 'read_file' });
    expect(call!.error).toMatch(
      /^The arguments for read_file are not valid JSON \(.+\)\. Send the arguments as one JSON object\.$/,
    );
  });

  it('returns a call to an unknown tool as a tool call with an error naming the real tools', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_x', name: 'delete_everything', input: { path: '/' } }] });

    const result = await client().step(stepRequest());

    expect(result.toolCalls).toEqual([
      {
        toolCallId: 'call_x',
        toolName: 'delete_everything',
        input: { path: '/' },
        error: 'There is no tool named "delete_everything". Available tools: read_file, list_dir.',
      },
    ]);
  });

  it('returns input that fails the tool schema as a tool call with an error naming the field', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_t', name: 'read_file', input: { path: 7, colour: 'red' } }] });

    const result = await client().step(stepRequest());

    const [call] = result.toolCalls;
    expect(call!.input).toEqual({ path: 7, colour: 'red' });
    expect(call!.error).toMatch(/^Invalid arguments for read_file: /);
    expect(call!.error).toContain('path: ');
    expect(call!.error).toContain('colour');
  });

  it('gives an invalid call a safe object input in the assistant message for the next request', async () => {
    fake.enqueue({ toolCalls: [{ id: 'call_bad', name: 'read_file', rawInput: '{"path": ' }] }, { text: 'ok' });
    const first = await client().step(stepRequest());

    const messages: ModelMessage[] = [
      ...userAsks('go'),
      first.assistantMessage,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_bad',
            toolName: 'read_file',
            output: { type: 'error-text', value: first.toolCalls[0]!.error! },
          },
        ],
      },
    ];
    await client().step(stepRequest({ messages }));

    const sent = provider.read(fake.requests[1]!);
    expect(sent.priorCalls).toEqual([{ id: 'call_bad', name: 'read_file', input: {} }]);
    expect(sent.priorResults[0]!.text).toContain('not valid JSON');
  });

  it('retries a 429 and succeeds on the second request', async () => {
    fake.enqueue({ status: 429 }, { text: 'after the wait' });
    const request = stepRequest();

    const result = await client().step(request);

    expect(result.text).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
    expect(request.retries.map((notice) => notice.error.kind)).toEqual(['rate_limit']);
  });

  it('retries a 500 and succeeds on the second request', async () => {
    fake.enqueue({ status: 500 }, { text: 'recovered' });
    const request = stepRequest();

    const result = await client().step(request);

    expect(result.text).toBe('recovered');
    expect(fake.requests).toHaveLength(2);
    expect(request.retries.map((notice) => notice.error.kind)).toEqual(['server']);
  });

  it('waits as long as the provider’s retry-after-ms header asks, within the cap', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after-ms': '3' } }, { text: 'ok' });
    const request = stepRequest();

    await client({ maxRetries: 2, initialDelayMs: 1, maxDelayMs: 50 }).step(request);

    expect(request.retries.map((notice) => notice.delayMs)).toEqual([3]);
  });

  it('retries a stream that breaks off mid-reply, voiding the text already delivered', async () => {
    fake.enqueue({ text: 'one two three four five six', closeMidStream: true }, { text: 'the whole answer' });
    const request = stepRequest();

    const result = await client().step(request);

    expect(fake.requests).toHaveLength(2);
    expect(request.retries).toHaveLength(1);
    const [notice] = request.retries;
    expect(notice!.error.kind).toBe('network');
    expect(notice!.discardedText.length).toBeGreaterThan(0);
    expect('one two three four five six'.startsWith(notice!.discardedText)).toBe(true);
    // What the UI keeps after dropping the void text is exactly the step's text.
    expect(request.deltas.join('')).toBe(notice!.discardedText + 'the whole answer');
    expect(result.text).toBe('the whole answer');
  });

  it('retries a stream that ends cleanly but unfinished', async () => {
    fake.enqueue({ text: 'one two three four five six', endMidStream: true }, { text: 'complete' });
    const request = stepRequest();

    const result = await client().step(request);

    expect(result.text).toBe('complete');
    expect(fake.requests).toHaveLength(2);
    expect(request.retries).toHaveLength(1);
  });

  it('retries an overload error sent inside the stream', async () => {
    fake.enqueue(
      { text: 'partial', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'second try' },
    );
    const request = stepRequest();

    const result = await client().step(request);

    expect(result.text).toBe('second try');
    expect(request.retries.map((notice) => [notice.error.kind, notice.discardedText])).toEqual([['server', 'partial']]);
  });

  it('gives up after the configured retries with a clear error', async () => {
    fake.enqueue({ status: 503 }, { status: 503 }, { status: 503 });

    const error = await rejection(client().step(stepRequest()));

    expect(error.kind).toBe('server');
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/had a server error \(HTTP 503: .*\)\. Gave up after 3 attempts\.$/);
    expect(fake.requests).toHaveLength(3);
  });

  it('fails a 401 at once as an auth error that says to check the key', async () => {
    fake.enqueue({ status: 401 }, { text: 'never sent' });

    const error = await rejection(client().step(stepRequest()));

    expect(error.kind).toBe('auth');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/rejected the API key \(HTTP 401: .*\)\. Check your key /);
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a 403 at once as an auth error', async () => {
    fake.enqueue({ status: 403 });

    const error = await rejection(client().step(stepRequest()));

    expect(error.kind).toBe('auth');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a 400 at once as a bad request, without retrying', async () => {
    fake.enqueue({ status: 400 });

    const error = await rejection(client().step(stepRequest()));

    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/refused the request \(HTTP 400: /);
    expect(fake.requests).toHaveLength(1);
  });

  it('rejects a malformed history as a bad request without sending it', async () => {
    const messages = [{ role: 'system', content: 'a second system prompt' }] as ModelMessage[];

    const error = await rejection(client().step(stepRequest({ messages })));

    expect(error.kind).toBe('bad_request');
    expect(error.message).toMatch(/^The request to .+ was malformed: /);
    expect(fake.requests).toHaveLength(0);
  });

  it('never repeats the key in an error, even when the provider quotes it', async () => {
    const echo = `Incorrect API key provided: ${API_KEY}`;
    fake.enqueue({
      status: 401,
      errorBody:
        provider.name === 'anthropic'
          ? { type: 'error', error: { type: 'authentication_error', message: echo } }
          : { error: { message: echo, type: 'invalid_request_error', code: 'invalid_api_key' } },
    });

    const error = await rejection(client().step(stepRequest()));

    expect(error.message).toContain('Incorrect API key provided: [redacted]');
    expect(error.message).not.toContain(API_KEY);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  it('aborts mid-stream at once: rejects as aborted and the server sees the client hang up', async () => {
    const hold = createHold();
    fake.enqueue({ text: 'thinking about it', hold });
    const controller = new AbortController();
    const request = stepRequest({ signal: controller.signal });

    const step = client().step(request);
    await hold.reached;
    controller.abort();
    const error = await rejection(step);
    await hold.clientGone;

    expect(error.kind).toBe('aborted');
    expect(fake.requests[0]!.clientAborted).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('stops waiting to retry when aborted during the backoff', async () => {
    fake.enqueue({ status: 500 }, { text: 'never reached' });
    const controller = new AbortController();
    const request = stepRequest({ signal: controller.signal, onRetry: () => controller.abort() });

    const error = await rejection(client({ maxRetries: 2, initialDelayMs: 60_000, maxDelayMs: 60_000 }).step(request));

    expect(error.kind).toBe('aborted');
    expect(fake.requests).toHaveLength(1);
  });

  it('rejects a signal that is already aborted without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();

    const error = await rejection(client().step(stepRequest({ signal: controller.signal })));

    expect(error.kind).toBe('aborted');
    expect(fake.requests).toHaveLength(0);
  });

  it(
    provider.name === 'openai-compatible'
      ? 'sends no Authorization header when no key is stored, since local servers need none'
      : 'fails with a clear error before any request when no key is configured',
    async () => {
      fake.enqueue({ text: 'local model here' });
      const keyless = new ProviderChatClient({
        config: provider.config(fake),
        env: {},
        keys: { get: async () => undefined },
      });

      if (provider.name === 'openai-compatible') {
        const result = await keyless.step(stepRequest());
        expect(result.text).toBe('local model here');
        expect(fake.requests[0]!.headers.authorization).toBeUndefined();
        return;
      }
      const error = await rejection(keyless.step(stepRequest()));
      const [label, envVar] =
        provider.name === 'anthropic' ? ['Anthropic', 'ANTHROPIC_API_KEY'] : ['OpenAI', 'OPENAI_API_KEY'];
      expect(error.kind).toBe('config');
      expect(error.message).toBe(`No API key for ${label}: set ${envVar} or add a key in Settings.`);
      expect(fake.requests).toHaveLength(0);
    },
  );

  it('reports an unreachable server as a network error after retrying', async () => {
    const config = provider.config(fake);
    await fake.close();
    const unreachable = new ProviderChatClient({
      config,
      env: provider.env,
      keys: { get: async () => provider.storedKey },
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const request = stepRequest();

    const error = await rejection(unreachable.step(request));

    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^Could not reach .+: .+\. Gave up after 2 attempts\.$/);
    expect(request.retries).toHaveLength(1);
    fake = await startFakeModel();
  });
});
