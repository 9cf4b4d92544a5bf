/**
 * The usage a reply reports, in provider-neutral terms; each wire format maps it to its own
 * fields (anthropic-wire.ts, openai-wire.ts).
 */
import { fakeTokenCount } from './fake-tokenizer.js';
import type { CacheAccount } from './prompt-cache.js';
import type { CountedPrompt } from './prompt-blocks.js';
import type { FakeReply } from './reply.js';

export interface ReportedUsage {
  /** All input tokens: read from the cache, written to it, and neither. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

/** The reply's text and tool calls (name and input JSON), with the input's tokenizer. */
export function replyOutputTokens(reply: FakeReply): number {
  const text = Array.isArray(reply.text) ? reply.text.join('') : (reply.text ?? '');
  let tokens = fakeTokenCount(text);
  for (const call of reply.toolCalls ?? []) {
    tokens += fakeTokenCount(call.name) + fakeTokenCount(call.rawInput ?? JSON.stringify(call.input ?? {}));
  }
  // A reply is never free: even an empty one ends with a stop token.
  return Math.max(1, tokens);
}

/**
 * For a wire format driven without a server (test/bench/window/slow-stream-model.ts streams
 * its own frames): the scripted usage, else the small fixed numbers this fake always reported.
 */
export function uncountedUsage(reply: FakeReply): ReportedUsage {
  const { inputTokens, outputTokens } = reply.usage ?? { inputTokens: 10, outputTokens: 5 };
  return { inputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens };
}

/**
 * A scripted `usage` wins, as it always did (tests that pin exact numbers); otherwise the
 * counted input and what the cache did with it.
 */
export function reportedUsage(reply: FakeReply, prompt: CountedPrompt, cache: CacheAccount): ReportedUsage {
  if (reply.usage) {
    return {
      inputTokens: reply.usage.inputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: reply.usage.outputTokens,
    };
  }
  return {
    inputTokens: prompt.inputTokens,
    cacheReadTokens: cache.cacheReadTokens,
    cacheWriteTokens: cache.cacheWriteTokens,
    outputTokens: replyOutputTokens(reply),
  };
}
