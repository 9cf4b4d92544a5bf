/**
 * The chat client itself refuses to send a key over plain http to another host (SPEC §11),
 * whatever Settings let through earlier (an old settings.json, a session's meta.json).
 *
 * A server on a non-loopback host is hard to come by in a test, so this one listens on
 * `::` and is reached as `[::ffff:127.0.0.1]`: an address that does arrive here, but that
 * the rule does not count as loopback. A keyless control request proves it arrives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatError } from '../../../../../electron/core/chat/chat-error.js';
import { ProviderChatClient } from '../../../../../electron/core/chat/provider-chat-client.js';
import type { ModelConfig } from '../../../../../electron/core/chat/model-config.js';
import { API_KEY } from './provider-cases.js';

let server: http.Server;
let received: http.IncomingHttpHeaders[];
let baseURL: string;

beforeEach(async () => {
  received = [];
  server = http.createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"not a model"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  baseURL = `http://[::ffff:127.0.0.1]:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function step(config: ModelConfig, storedKey?: string, env: Record<string, string> = {}): Promise<unknown> {
  const client = new ProviderChatClient({
    config,
    env,
    keys: { get: async (provider) => (provider === config.provider ? storedKey : undefined) },
    retry: { maxRetries: 0 },
  });
  const request = { system: 's', messages: [{ role: 'user' as const, content: 'hi' }], tools: {} };
  return client.step({ ...request, signal: new AbortController().signal }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the chat client and plain http', () => {
  it('reaches the server when no key would travel (the control)', async () => {
    const error = await step({ provider: 'openai-compatible', modelId: 'm', baseURL });
    expect(error).toBeInstanceOf(ChatError);
    expect(received).toHaveLength(1);
    expect(received[0]?.authorization).toBeUndefined();
  });

  it.each([
    ['openai-compatible with a saved key', 'openai-compatible', API_KEY, {}],
    ['anthropic with a key in the environment', 'anthropic', undefined, { ANTHROPIC_API_KEY: API_KEY }],
    ['openai with a saved key', 'openai', API_KEY, {}],
  ] as const)('refuses %s before any request is made', async (_what, provider, storedKey, env) => {
    const error = await step({ provider, modelId: 'm', baseURL }, storedKey, env);
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).kind).toBe('config');
    expect((error as ChatError).message).toContain('plain http');
    expect((error as ChatError).message).not.toContain(API_KEY);
    expect(received).toEqual([]);
  });
});
