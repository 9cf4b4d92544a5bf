/**
 * An OpenAI chat-completions request body read as blocks: each tool definition, then each
 * message (content text, tool calls' names and arguments, a tool message's content). OpenAI
 * caches prefixes automatically, with no marks, so a whole message is fine-grained enough.
 */
import { fakeTokenCount } from './fake-tokenizer.js';
import {
  asArray,
  asObject,
  canonicalJson,
  countPrompt,
  type CountedPrompt,
  type Json,
  type PromptBlock,
} from './prompt-blocks.js';

/**
 * Each message is wrapped in role markers: OpenAI's cookbook counts 3 tokens per message
 * ("How to count tokens with tiktoken", tokens_per_message = 3).
 */
const MESSAGE_OVERHEAD_TOKENS = 3;
/** An image part, at the scale of a high-detail image (OpenAI prices them in 170-token tiles). */
const IMAGE_TOKENS = 765;

function partTokens(part: unknown): number {
  if (typeof part === 'string') return fakeTokenCount(part);
  const object = asObject(part) ?? {};
  if (object.type === 'text') return fakeTokenCount(String(object.text ?? ''));
  if (object.type === 'image_url') return IMAGE_TOKENS;
  return fakeTokenCount(canonicalJson(object));
}

function messageTokens(message: Json): number {
  const content = message.content;
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  if (typeof content === 'string') tokens += fakeTokenCount(content);
  else tokens += asArray(content).reduce<number>((sum, part) => sum + partTokens(part), 0);
  for (const call of asArray(message.tool_calls)) {
    const fn = asObject(asObject(call)?.function) ?? {};
    tokens += fakeTokenCount(String(fn.name ?? '')) + fakeTokenCount(String(fn.arguments ?? ''));
  }
  return tokens;
}

export function readOpenAIPrompt(body: unknown): CountedPrompt {
  const request = asObject(body) ?? {};
  const blocks: PromptBlock[] = [];
  for (const tool of asArray(request.tools)) {
    const key = canonicalJson(tool);
    blocks.push({ key, tokens: fakeTokenCount(key), breakpoint: false, section: 'tools' });
  }
  for (const message of asArray(request.messages)) {
    const object = asObject(message) ?? {};
    blocks.push({ key: canonicalJson(object), tokens: messageTokens(object), breakpoint: false, section: 'messages' });
  }
  const cacheKey = request.prompt_cache_key;
  return countPrompt(String(request.model ?? ''), blocks, {
    promptCacheKey: typeof cacheKey === 'string' ? cacheKey : undefined,
  });
}
