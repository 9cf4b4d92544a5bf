import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../../../electron/core/chat/chat-error.js';
import { resolveApiKey, type KeyStore } from '../../../../../electron/core/chat/key-store.js';

const store = (keys: Record<string, string>): KeyStore => ({ get: async (provider) => keys[provider] });

describe('resolveApiKey', () => {
  it('prefers a key saved in Settings over the environment', async () => {
    const key = await resolveApiKey('anthropic', {
      keys: store({ anthropic: 'from-settings' }),
      env: { ANTHROPIC_API_KEY: 'from-env' },
    });
    expect(key).toBe('from-settings');
  });

  it('falls back to the provider’s usual environment variable', async () => {
    expect(await resolveApiKey('anthropic', { env: { ANTHROPIC_API_KEY: 'a-key' } })).toBe('a-key');
    expect(await resolveApiKey('openai', { keys: store({}), env: { OPENAI_API_KEY: 'o-key' } })).toBe('o-key');
  });

  it('treats a blank key as no key', async () => {
    const missing = resolveApiKey('openai', { keys: store({ openai: '  ' }), env: { OPENAI_API_KEY: '' } });
    await expect(missing).rejects.toThrow('No API key for OpenAI: set OPENAI_API_KEY or add a key in Settings.');
  });

  it('never hands the OpenAI key to an openai-compatible server, which may need no key at all', async () => {
    expect(await resolveApiKey('openai-compatible', { env: { OPENAI_API_KEY: 'o-key' } })).toBeUndefined();
    expect(await resolveApiKey('openai-compatible', { keys: store({ 'openai-compatible': 'c-key' }), env: {} })).toBe(
      'c-key',
    );
  });

  it('reports a key store that fails without repeating what it said', async () => {
    const broken: KeyStore = {
      get: async () => {
        throw new TypeError('could not decrypt sk-secret-blob');
      },
    };
    const error = await resolveApiKey('anthropic', { keys: broken, env: {} }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).kind).toBe('config');
    expect((error as ChatError).message).toBe('Could not read the saved key for Anthropic (TypeError).');
  });
});
