/**
 * Anthropic's prompt cache, as https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 * describes it:
 *
 * - `cache_control` breakpoints go on tool definitions, system blocks and message content
 *   blocks, at most four per request; a fifth is a 400 invalid_request_error, "A maximum of
 *   4 blocks with cache_control may be provided. Found 5." (the API's wording, as reported
 *   in e.g. tghamm/Anthropic.SDK#50).
 * - Each breakpoint writes the prefix ending at it (tools, system, messages, in that order),
 *   provided it holds at least the model's minimum cacheable length (1,024 tokens for most
 *   models; shorter prefixes are silently not cached).
 * - A later request reads the longest cached prefix that matches exactly; the API looks for
 *   a hit at each breakpoint and at the block boundaries up to about 20 blocks before it, so
 *   a breakpoint more than 20 blocks past the last cached one misses.
 * - Usage: `cache_read_input_tokens` (read), `cache_creation_input_tokens` (written: from the
 *   end of what was read to the last breakpoint), and `input_tokens`, only what is neither;
 *   the total input is the three summed.
 *
 * Entries are keyed by the hash of the whole prefix (prompt-blocks.ts). The real cache
 * forgets an entry 5 minutes after its last use (or 1 hour with ttl "1h"); this one keeps
 * everything for the server's lifetime, which is a test's or a benchmark's.
 */
import type { CountedPrompt } from './prompt-blocks.js';
import type { CacheAccount, PromptCache } from './prompt-cache.js';

export const MAX_CACHE_BREAKPOINTS = 4;
/** How many block boundaries before a breakpoint (and the breakpoint itself) are checked for a hit. */
export const CACHE_LOOKBACK_BLOCKS = 20;

/** The real API's 400 message for too many breakpoints, or undefined when the request is fine. */
export function breakpointLimitError(prompt: CountedPrompt): string | undefined {
  if (prompt.breakpointCount <= MAX_CACHE_BREAKPOINTS) return undefined;
  return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${prompt.breakpointCount}.`;
}

export class AnthropicCache implements PromptCache {
  /** Prefix hash → the prefix's tokens. */
  private readonly entries = new Map<string, number>();

  constructor(private readonly minCacheTokens: number) {}

  account(prompt: CountedPrompt): CacheAccount {
    const breakpoints = prompt.blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    let read = 0;
    for (const breakpoint of breakpoints) {
      const earliest = Math.max(0, breakpoint - CACHE_LOOKBACK_BLOCKS);
      for (let at = breakpoint; at >= earliest; at -= 1) {
        const hit = this.entries.get(prompt.prefixHashes[at]!);
        if (hit !== undefined) {
          read = Math.max(read, hit);
          break;
        }
      }
    }
    const last = breakpoints.at(-1);
    const lastPrefix = last === undefined ? 0 : prompt.prefixTokens[last]!;
    const write = lastPrefix >= this.minCacheTokens && lastPrefix > read ? lastPrefix - read : 0;
    return {
      cacheReadTokens: read,
      cacheWriteTokens: write,
      commit: () => {
        for (const breakpoint of breakpoints) {
          const tokens = prompt.prefixTokens[breakpoint]!;
          if (tokens >= this.minCacheTokens) this.entries.set(prompt.prefixHashes[breakpoint]!, tokens);
        }
      },
    };
  }
}
