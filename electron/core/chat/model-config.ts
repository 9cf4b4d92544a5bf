/** Which model a session talks to, checked once at the boundary with zod. */
import { modelConfigSchema, type ModelConfig } from '../../../shared/contract.js';
import { ChatError } from './chat-error.js';

// The schema is part of the contract (settings.set carries it), so it is defined once in shared/.
export { modelConfigSchema, type ModelConfig } from '../../../shared/contract.js';
export const providerNames = ['anthropic', 'openai', 'openai-compatible'] as const;
export type ProviderName = (typeof providerNames)[number];

/** Validates untrusted input (settings file, IPC payload) into a ModelConfig. */
export function parseModelConfig(input: unknown): ModelConfig {
  const result = modelConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
  throw new ChatError('config', `Invalid model configuration: ${problems.join('; ')}.`);
}

/** How messages name the provider to the user. */
export function providerLabel(config: ModelConfig): string {
  switch (config.provider) {
    case 'anthropic':
      return 'Anthropic';
    case 'openai':
      return 'OpenAI';
    case 'openai-compatible':
      return `the model server at ${config.baseURL ? displayURL(config.baseURL) : '(no baseURL)'}`;
  }
}

/** A base URL as messages may show it: no user, password, query or fragment, which can carry credentials. */
export function displayURL(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(an unparsable URL)';
  }
}
