import { APICallError, StreamProviderError } from 'ai';
import { describe, expect, it } from 'vitest';
import { toChatError, type FailureContext } from '../../../../../electron/core/chat/provider-failure.js';

const context = (secret?: string): FailureContext => ({
  config: { provider: 'openai-compatible', modelId: 'llama', baseURL: 'http://127.0.0.1:11434/v1' },
  secret,
  aborted: false,
});

const httpError = (statusCode: number, message: string): APICallError =>
  new APICallError({ message, url: 'http://127.0.0.1:11434/v1/chat/completions', requestBodyValues: {}, statusCode });

describe('toChatError', () => {
  it('names an openai-compatible server by its base URL', () => {
    const error = toChatError(httpError(500, 'boom'), context());

    expect(error.message).toBe('The model server at http://127.0.0.1:11434/v1 had a server error (HTTP 500: boom).');
    expect(error.retryable).toBe(true);
  });

  it('leaves a message alone when the key is a short placeholder, rather than garbling it', () => {
    const error = toChatError(httpError(401, 'bad key for ollama'), context('ollama'));

    expect(error.message).toContain('bad key for ollama');
    expect(error.message).toContain('Check your key for this server in Settings.');
  });

  it('treats any failure after the signal fired as a cancel', () => {
    const error = toChatError(httpError(500, 'boom'), { ...context(), aborted: true });

    expect(error.kind).toBe('aborted');
  });

  it('classifies an in-stream provider error by its status, and trusts its retry hint otherwise', () => {
    const limited = toChatError(new StreamProviderError({ message: 'slow down', statusCode: 429 }), context());
    const opaque = toChatError(new StreamProviderError({ message: 'odd', isRetryable: false }), context());

    expect([limited.kind, limited.retryable]).toEqual(['rate_limit', true]);
    expect([opaque.kind, opaque.retryable]).toEqual(['server', false]);
    expect(opaque.message).toBe('The model server at http://127.0.0.1:11434/v1 reported an error mid-reply: odd');
  });
});
