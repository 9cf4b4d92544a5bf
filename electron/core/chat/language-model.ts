/** Builds the AI SDK model object for a config. Only this file knows the provider packages. */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { plainHttpKeyProblem } from '../../../shared/key-transport.js';
import { ChatError } from './chat-error.js';
import type { ModelConfig } from './model-config.js';

/**
 * The base URL a request goes to: the config's, else the provider's own endpoint (none for a
 * compatible server). Passed explicitly so the providers never fall back to
 * ANTHROPIC_BASE_URL / OPENAI_BASE_URL from the environment.
 */
export function baseURLOf(config: ModelConfig): string | undefined {
  if (config.baseURL) return config.baseURL;
  if (config.provider === 'anthropic') return 'https://api.anthropic.com/v1';
  if (config.provider === 'openai') return 'https://api.openai.com/v1';
  return undefined;
}

/**
 * Throws ChatError 'config' for a config that would send the key over plain http. Checked
 * here, where every request's model is made, and not only in Settings: a config saved
 * before the rule, or one in an old session's meta.json, must not send the key in clear.
 */
export function createLanguageModel(config: ModelConfig, apiKey: string | undefined): LanguageModel {
  const plainHttp = plainHttpKeyProblem(config, apiKey !== undefined);
  if (plainHttp) throw new ChatError('config', plainHttp);
  switch (config.provider) {
    case 'anthropic':
      return createAnthropic({ baseURL: baseURLOf(config), apiKey })(config.modelId);
    case 'openai':
      // Chat completions rather than the Responses API: it is what compatible servers
      // speak too, so one wire format serves every provider here.
      return createOpenAI({ baseURL: baseURLOf(config), apiKey }).chat(config.modelId);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseURL ?? '',
        apiKey,
        includeUsage: true,
      })(config.modelId);
  }
}
