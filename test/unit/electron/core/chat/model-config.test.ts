import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../../../electron/core/chat/chat-error.js';
import { displayURL, parseModelConfig } from '../../../../../electron/core/chat/model-config.js';
import { ProviderChatClient } from '../../../../../electron/core/chat/provider-chat-client.js';

function configError(input: unknown): ChatError {
  try {
    parseModelConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).kind).toBe('config');
    return error as ChatError;
  }
  throw new Error('expected the config to be rejected');
}

describe('parseModelConfig', () => {
  it('accepts each provider with a model id and an optional base URL', () => {
    expect(parseModelConfig({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' })).toEqual({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
    });
    expect(parseModelConfig({ provider: 'openai', modelId: 'gpt-5', baseURL: 'https://proxy.example/v1' })).toEqual({
      provider: 'openai',
      modelId: 'gpt-5',
      baseURL: 'https://proxy.example/v1',
    });
    expect(
      parseModelConfig({ provider: 'openai-compatible', modelId: ' llama3.2 ', baseURL: 'http://127.0.0.1:11434/v1' }),
    ).toEqual({ provider: 'openai-compatible', modelId: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1' });
  });

  it('requires a base URL for an openai-compatible server, and says so with an example', () => {
    expect(configError({ provider: 'openai-compatible', modelId: 'llama3.2' }).message).toBe(
      'Invalid model configuration: baseURL: an openai-compatible provider needs a baseURL, e.g. http://127.0.0.1:11434/v1 for Ollama.',
    );
  });

  it('names the allowed providers when the provider is unknown', () => {
    expect(configError({ provider: 'gemini', modelId: 'x' }).message).toBe(
      'Invalid model configuration: provider: provider must be one of: anthropic, openai, openai-compatible.',
    );
  });

  it('rejects an empty model id, a non-http base URL and unknown fields, listing every problem', () => {
    const message = configError({
      provider: 'openai',
      modelId: '  ',
      baseURL: 'file:///etc/passwd',
      apiKey: 'x',
    }).message;
    expect(message).toContain('modelId: modelId must not be empty');
    expect(message).toContain('baseURL: baseURL must be an http:// or https:// URL');
    expect(message).toContain('apiKey');
  });

  it('makes the client constructor refuse an invalid config', () => {
    expect(() => new ProviderChatClient({ config: { provider: 'openai', modelId: '' }, env: {} })).toThrow(ChatError);
  });
});

describe('displayURL', () => {
  it('drops credentials, query and fragment from a base URL shown in messages', () => {
    expect(displayURL('https://user:pass@models.example:8443/v1?api-key=s3cret#x')).toBe(
      'https://models.example:8443/v1',
    );
    expect(displayURL('not a url')).toBe('(an unparsable URL)');
  });
});
