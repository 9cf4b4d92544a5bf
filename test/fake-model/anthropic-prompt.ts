/**
 * An Anthropic Messages request body read as blocks, in the order the API renders its prompt
 * and builds the cacheable prefix: `tools`, then `system`, then `messages`
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). Each tool
 * definition, each system text block and each message content block is one block; a
 * `cache_control` mark on any of them is a breakpoint.
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

/** The role markers around each turn; the real API's overhead per message is of this size. */
const MESSAGE_OVERHEAD_TOKENS = 3;
/**
 * An image block: Anthropic documents tokens = width × height / 750, about 1,600 for an
 * image of 1.15 megapixels (the size it scales larger images down to).
 */
const IMAGE_TOKENS = 1600;

/** A block without its cache_control marks, and how many it carried (nested ones too). */
function unmarked(block: Json): { clean: Json; marks: number } {
  let marks = block.cache_control ? 1 : 0;
  const clean: Json = { ...block };
  delete clean.cache_control;
  if (Array.isArray(clean.content)) {
    clean.content = clean.content.map((item: unknown) => {
      const object = asObject(item);
      if (!object?.cache_control) return item;
      marks += 1;
      const copy = { ...object };
      delete copy.cache_control;
      return copy;
    });
  }
  return { clean, marks };
}

function contentTokens(block: Json): number {
  switch (block.type) {
    case 'text':
      return fakeTokenCount(String(block.text ?? ''));
    case 'tool_use':
      return fakeTokenCount(String(block.name ?? '')) + fakeTokenCount(JSON.stringify(block.input ?? {}));
    case 'tool_result':
      return typeof block.content === 'string'
        ? fakeTokenCount(block.content)
        : asArray(block.content).reduce<number>((sum, item) => sum + contentTokens(asObject(item) ?? {}), 0);
    case 'thinking':
      return fakeTokenCount(String(block.thinking ?? ''));
    case 'redacted_thinking':
      return fakeTokenCount(String(block.data ?? ''));
    case 'image':
      return IMAGE_TOKENS;
    default:
      return fakeTokenCount(canonicalJson(block));
  }
}

export function readAnthropicPrompt(body: unknown): CountedPrompt {
  const request = asObject(body) ?? {};
  const blocks: PromptBlock[] = [];
  let breakpointCount = 0;

  for (const tool of asArray(request.tools)) {
    const { clean, marks } = unmarked(asObject(tool) ?? {});
    breakpointCount += marks;
    const key = canonicalJson(clean);
    blocks.push({ key, tokens: fakeTokenCount(key), breakpoint: marks > 0, section: 'tools' });
  }

  const system =
    typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : asArray(request.system);
  for (const item of system) {
    const { clean, marks } = unmarked(asObject(item) ?? {});
    breakpointCount += marks;
    blocks.push({
      key: canonicalJson({ system: clean }),
      tokens: contentTokens(clean),
      breakpoint: marks > 0,
      section: 'system',
    });
  }

  for (const message of asArray(request.messages)) {
    const { role, content } = asObject(message) ?? {};
    const items = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content);
    for (const [index, item] of items.entries()) {
      const { clean, marks } = unmarked(asObject(item) ?? {});
      breakpointCount += marks;
      blocks.push({
        // The role is part of what the model reads, so it is part of the key.
        key: canonicalJson({ role, block: clean }),
        tokens: contentTokens(clean) + (index === 0 ? MESSAGE_OVERHEAD_TOKENS : 0),
        breakpoint: marks > 0,
        section: 'messages',
      });
    }
  }

  // Automatic caching: a top-level cache_control puts one breakpoint on the last cacheable
  // block, and it takes one of the four slots.
  const last = blocks.at(-1);
  if (request.cache_control && last) {
    breakpointCount += 1;
    last.breakpoint = true;
  }

  return countPrompt(String(request.model ?? ''), blocks, { breakpointCount });
}
