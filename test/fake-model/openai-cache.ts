/**
 * OpenAI's automatic prompt caching, simply and honestly
 * (https://developers.openai.com/api/docs/guides/prompt-caching): no marks; a prompt of at
 * least 1,024 tokens is cached, and a later prompt that starts with a prefix seen before
 * reads it, reported as `usage.prompt_tokens_details.cached_tokens` in increments of 128
 * tokens. Writes are free and never reported.
 *
 * Simplifications: a prefix matches at block boundaries (whole tool definitions and
 * messages), not token by token as on the real service; `prompt_cache_key` only helps the
 * real service route requests to the same machine, so it does not change a hit here (it is
 * recorded on the request); nothing is evicted (the real cache keeps a prefix for minutes
 * of inactivity).
 */
import type { CountedPrompt } from './prompt-blocks.js';
import type { CacheAccount, PromptCache } from './prompt-cache.js';

export const CACHE_INCREMENT_TOKENS = 128;

export class OpenAIPrefixCache implements PromptCache {
  /** Prefix hash → the prefix's tokens. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly minCacheTokens: number) {}

  account(prompt: CountedPrompt): CacheAccount {
    let matched = 0;
    for (let at = prompt.prefixHashes.length - 1; at >= 0; at -= 1) {
      const hit = this.seen.get(prompt.prefixHashes[at]!);
      if (hit !== undefined) {
        matched = hit;
        break;
      }
    }
    const cached =
      matched >= this.minCacheTokens ? Math.floor(matched / CACHE_INCREMENT_TOKENS) * CACHE_INCREMENT_TOKENS : 0;
    return {
      cacheReadTokens: cached,
      cacheWriteTokens: 0,
      commit: () => {
        if (prompt.inputTokens < this.minCacheTokens) return;
        for (const [at, hash] of prompt.prefixHashes.entries()) this.seen.set(hash, prompt.prefixTokens[at]!);
      },
    };
  }
}
