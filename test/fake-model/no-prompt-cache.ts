/**
 * A provider whose prompt cache the fake does not model (Gemini's implicit caching): every
 * request reads and writes nothing, so usage reports no cached tokens.
 */
import type { CacheAccount, PromptCache } from './prompt-cache.js';

export class NoPromptCache implements PromptCache {
  account(): CacheAccount {
    return { cacheReadTokens: 0, cacheWriteTokens: 0, commit: () => {} };
  }
}
