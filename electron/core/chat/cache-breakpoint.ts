/**
 * Prompt-cache breakpoints in a provider's wire format. The context decides where they
 * go (as positions, `CacheBreakpoints`); only here do they become provider options.
 * Anthropic caches a prefix only where a request marks it (`cache_control`); OpenAI
 * caches on its own and is grouped by the request's cache key instead.
 */
import type { ModelMessage, SystemModelMessage } from 'ai';
import type { ModelConfig } from '../../../shared/contract.js';
import type { CacheBreakpoints } from './chat-client.js';

/** The provider options that end an Anthropic prompt-cache breakpoint on a message or a system block. */
const ANTHROPIC_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

/** Whether a provider caches only where a request marks it, so that marks are worth placing. */
export function takesCacheBreakpoints(provider: ModelConfig['provider']): boolean {
  return provider === 'anthropic';
}

/** The system prompt as the SDK takes it, its breakpoint written on it when there is one. */
export function systemWithBreakpoint(
  provider: ModelConfig['provider'],
  system: string,
  marks: CacheBreakpoints | undefined,
): SystemModelMessage[] {
  const marked = marks?.system === true && takesCacheBreakpoints(provider);
  return [{ role: 'system', content: system, ...(marked ? { providerOptions: ANTHROPIC_BREAKPOINT } : {}) }];
}

/** The messages with a breakpoint written on each marked one; the caller's messages are never edited. */
export function messagesWithBreakpoints(
  provider: ModelConfig['provider'],
  messages: ModelMessage[],
  marks: CacheBreakpoints | undefined,
): ModelMessage[] {
  if (!marks || marks.messages.length === 0 || !takesCacheBreakpoints(provider)) return messages;
  const at = new Set(marks.messages);
  return messages.map((m, i) => (at.has(i) ? ({ ...m, providerOptions: ANTHROPIC_BREAKPOINT } as ModelMessage) : m));
}
