/**
 * A request's input as the provider sees it: an ordered list of blocks (tool definitions,
 * system blocks, message content), each with its token count and the hash of the whole
 * prefix ending at it. Both prompt caches work on these hashes, so a cache entry is keyed by
 * the exact content of everything before it (tools and system included), never by a
 * position or a count.
 */
import { createHash } from 'node:crypto';

export interface PromptBlock {
  /** Canonical JSON of the block with its cache_control marks removed (and its role). */
  key: string;
  tokens: number;
  /** The block carries a cache_control mark (Anthropic). */
  breakpoint: boolean;
  /** Where the block sits: OpenAI's length error counts the tools ("functions") apart. */
  section: 'tools' | 'system' | 'messages';
}

export interface CountedPrompt {
  blocks: PromptBlock[];
  /** prefixTokens[i]: the tokens of blocks 0..i. */
  prefixTokens: number[];
  /** prefixHashes[i]: the hash of the model id and blocks 0..i. */
  prefixHashes: string[];
  /** Every block's tokens: what the request costs against the context window. */
  inputTokens: number;
  /** cache_control marks anywhere in the request (Anthropic allows four). */
  breakpointCount: number;
  model: string;
  /** OpenAI's prompt_cache_key, when the request sent one. */
  promptCacheKey: string | undefined;
}

/**
 * JSON with object keys sorted, so that two requests meaning the same block hash the same
 * whatever order a client wrote the keys in (the API compares rendered content, not JSON
 * text); every string and number must still match exactly.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function countPrompt(
  model: string,
  blocks: PromptBlock[],
  extra: { breakpointCount?: number; promptCacheKey?: string | undefined } = {},
): CountedPrompt {
  const prefixTokens: number[] = [];
  const prefixHashes: string[] = [];
  let tokens = 0;
  // A chain of hashes: each covers the previous one and the next block, hence the whole
  // prefix. Caches are per model on the real APIs, so the model id seeds the chain.
  let hash = createHash('sha256').update(model).digest('hex');
  for (const block of blocks) {
    tokens += block.tokens;
    hash = createHash('sha256').update(hash).update('\n').update(block.key).digest('hex');
    prefixTokens.push(tokens);
    prefixHashes.push(hash);
  }
  return {
    blocks,
    prefixTokens,
    prefixHashes,
    inputTokens: tokens,
    breakpointCount: extra.breakpointCount ?? blocks.filter((block) => block.breakpoint).length,
    model,
    promptCacheKey: extra.promptCacheKey,
  };
}

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}
