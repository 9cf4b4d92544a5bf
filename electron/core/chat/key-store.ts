/**
 * Where API keys come from. The Electron shell implements KeyStore with safeStorage;
 * the core only asks for a key at the moment it sends a request, so a key changed in
 * Settings takes effect on the next step and is never cached here.
 */
import { ChatError } from './chat-error.js';
import type { ProviderName } from './model-config.js';

export interface KeyStore {
  get(provider: ProviderName): Promise<string | undefined>;
}

/** The environment variable each provider's key may come from. */
const envVarFor: Record<ProviderName, string | undefined> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  // A compatible server is someone else's: sending it the OpenAI key would leak it.
  'openai-compatible': undefined,
};

const displayName: Record<ProviderName, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'the OpenAI-compatible server',
};

async function readStoredKey(provider: ProviderName, keys: KeyStore | undefined): Promise<string | undefined> {
  try {
    return await keys?.get(provider);
  } catch (error) {
    // The store's own error could quote what it failed to decrypt, so only its kind is kept.
    const reason = error instanceof Error ? error.name : 'unknown error';
    throw new ChatError('config', `Could not read the saved key for ${displayName[provider]} (${reason}).`);
  }
}

export interface KeySources {
  keys?: KeyStore;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * A key saved in Settings wins over the environment: it is the more deliberate choice.
 * Returns undefined only for openai-compatible, where local servers need no key.
 */
export async function resolveApiKey(provider: ProviderName, sources: KeySources): Promise<string | undefined> {
  const stored = (await readStoredKey(provider, sources.keys))?.trim();
  if (stored) return stored;
  const envVar = envVarFor[provider];
  const fromEnv = envVar ? sources.env[envVar]?.trim() : undefined;
  if (fromEnv) return fromEnv;
  if (provider === 'openai-compatible') return undefined;
  throw new ChatError('config', `No API key for ${displayName[provider]}: set ${envVar} or add a key in Settings.`);
}
