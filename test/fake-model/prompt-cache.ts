/** What a provider's prompt cache says about one request, and how it remembers it. */
import type { CountedPrompt } from './prompt-blocks.js';

export interface CacheAccount {
  /** Input tokens read from the cache. */
  cacheReadTokens: number;
  /** Input tokens written to the cache (Anthropic reports these; OpenAI never does). */
  cacheWriteTokens: number;
  /** Stores what this request wrote: called only once the request is answered. */
  commit(): void;
}

export interface PromptCache {
  account(prompt: CountedPrompt): CacheAccount;
}
