/**
 * Settings' Test connection against the fake model server, through the real AI SDK
 * providers and real HTTP: it works, the key was refused, the model was not found, the
 * server is unreachable (a closed port) or silent, each in words, none quoting a key.
 */
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../../../../electron/core/chat/connection-test.js';
import type { KeyStore } from '../../../../../electron/core/chat/key-store.js';
import type { ModelConfig } from '../../../../../electron/core/chat/model-config.js';
import { startFakeModel, type FakeModel } from '../../../../fake-model/server.js';
import { API_KEY, providerCases, type ProviderCase } from './provider-cases.js';

/** A port on loopback that nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The provider's own answer for a model it does not have. */
function notFoundBody(provider: ProviderCase['name'], modelId: string): unknown {
  if (provider === 'anthropic')
    return { type: 'error', error: { type: 'not_found_error', message: `model: ${modelId}` } };
  return {
    error: {
      message: `The model \`${modelId}\` does not exist or you do not have access to it.`,
      type: 'invalid_request_error',
      param: null,
      code: 'model_not_found',
    },
  };
}

describe.each(providerCases)('Test connection with $name', (provider: ProviderCase) => {
  let fake: FakeModel;
  let config: ModelConfig;
  const keys: KeyStore = { get: async () => provider.storedKey };
  const run = (model: ModelConfig, timeoutMs?: number) => testConnection(model, { keys, env: provider.env, timeoutMs });

  beforeEach(async () => {
    fake = await startFakeModel();
    config = provider.config(fake);
  });
  afterEach(() => fake.close());

  it('works: one tiny request, no tools, with the key', async () => {
    fake.enqueue({ text: 'OK' });
    expect(await run(config)).toEqual({ outcome: 'works', message: `Works: ${config.modelId} answered.` });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.headers[provider.keyHeader.name]).toBe(provider.keyHeader.value);
    const body = request!.body as Record<string, unknown>;
    expect(body.tools ?? []).toEqual([]);
    const cap = body.max_tokens ?? body.max_completion_tokens;
    expect(cap).toBeGreaterThanOrEqual(1);
    expect(cap).toBeLessThanOrEqual(8);
  });

  it('a refused key: says so with the provider’s words, once, and never quotes the key', async () => {
    fake.enqueue({ status: 401 });
    const result = await run(config);
    expect(result.outcome).toBe('key_refused');
    expect(result.message).toMatch(/^The key was refused \(HTTP 401: .+\)\./);
    expect(result.message).not.toContain(API_KEY);
    // No retry: a refused key stays refused, and the person is waiting on the button.
    expect(fake.requests).toHaveLength(1);
  });

  it('a model the server does not have: "Model not found: <id>"', async () => {
    fake.enqueue({ status: 404, errorBody: notFoundBody(provider.name, config.modelId) });
    expect(await run(config)).toEqual({ outcome: 'model_not_found', message: `Model not found: ${config.modelId}.` });
  });

  it('an unreachable server: names the URL tried', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const result = await run({ ...config, baseURL });
    expect(result.outcome).toBe('unreachable');
    expect(result.message).toMatch(new RegExp(`^Server unreachable: ${baseURL.replaceAll('.', '\\.')}\\b`));
  });

  it('a server that does not answer in time: says so, with the URL', async () => {
    fake.enqueue({ text: 'late', delayMs: 2_000 });
    const result = await run(config, 200);
    expect(result.outcome).toBe('no_answer');
    expect(result.message).toContain(`No answer from ${config.baseURL}`);
  });
});

describe('Test connection, beyond the four answers', () => {
  let fake: FakeModel;
  beforeEach(async () => {
    fake = await startFakeModel();
  });
  afterEach(() => fake.close());

  const compatible = (baseURL: string): ModelConfig => ({ provider: 'openai-compatible', modelId: 'llama3', baseURL });

  it('a 400 that says the model is not valid (as OpenRouter answers) is "Model not found" too', async () => {
    fake.enqueue({
      status: 400,
      errorBody: { error: { message: 'llama3 is not a valid model ID', code: 400 } },
    });
    const result = await testConnection(compatible(fake.openaiBaseURL), { env: {} });
    expect(result).toEqual({ outcome: 'model_not_found', message: 'Model not found: llama3.' });
  });

  it('a 404 that speaks of no model (a base URL without /v1) also says to check the base URL', async () => {
    fake.enqueue({ status: 404, errorBody: '404 page not found' });
    const result = await testConnection(compatible(fake.url), { env: {} });
    expect(result.outcome).toBe('model_not_found');
    expect(result.message).toBe(
      `Model not found: llama3. ${fake.url}/ answered HTTP 404: if the model exists there, check the base URL.`,
    );
  });

  it('no key for Anthropic: the chat client’s own words, and nothing is sent', async () => {
    const result = await testConnection(
      { provider: 'anthropic', modelId: 'claude-test', baseURL: fake.anthropicBaseURL },
      { env: {} },
    );
    expect(result).toEqual({
      outcome: 'failed',
      message: 'No API key for Anthropic: set ANTHROPIC_API_KEY or add a key in Settings.',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('other failures keep the chat client’s words (a rate limit)', async () => {
    fake.enqueue({ status: 429 });
    const result = await testConnection(compatible(fake.openaiBaseURL), { env: {} });
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/rate-limiting requests \(HTTP 429/);
  });

  it('never shows credentials from the base URL', async () => {
    const port = await closedPort();
    const inQuery = await testConnection(compatible(`http://127.0.0.1:${port}/v1?api-key=zzz-secret`), { env: {} });
    expect(inQuery.outcome).toBe('unreachable');
    expect(inQuery.message).toContain(`Server unreachable: http://127.0.0.1:${port}/v1`);
    // fetch refuses a URL with a user and password before sending anything; its words are redacted.
    const inUserInfo = await testConnection(compatible(`http://me:hunter22@127.0.0.1:${port}/v1`), { env: {} });
    expect(inUserInfo.outcome).toBe('failed');
    for (const { message } of [inQuery, inUserInfo]) expect(message).not.toMatch(/hunter22|zzz-secret/);
  });

  it('an invalid setting is refused by the settings schema, before any request', async () => {
    const result = await testConnection({ provider: 'openai-compatible', modelId: 'llama3' } as ModelConfig, {
      env: {},
    });
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/baseURL: an openai-compatible provider needs a baseURL/);
    expect(fake.requests).toHaveLength(0);
  });
});
