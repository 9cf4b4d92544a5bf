/**
 * A Gemini `generateContent` request body read as blocks: each function declaration, the
 * system instruction, then each content (its parts' text, function calls' names and
 * arguments, function responses). The model is named in the path, not the body, so the
 * prompt's model is left empty: the caches keyed on it are per server anyway.
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

/** The role marker around each content, as for OpenAI's messages. */
const CONTENT_OVERHEAD_TOKENS = 3;

function partTokens(part: unknown): number {
  const object = asObject(part) ?? {};
  if (typeof object.text === 'string') return fakeTokenCount(object.text);
  return fakeTokenCount(canonicalJson(object));
}

function contentTokens(content: Json): number {
  return asArray(content.parts).reduce<number>((sum, part) => sum + partTokens(part), CONTENT_OVERHEAD_TOKENS);
}

/** The function declarations of every tool entry, in order. */
export function geminiFunctionDeclarations(body: unknown): Json[] {
  return asArray(asObject(body)?.tools).flatMap((tool) =>
    asArray(asObject(tool)?.functionDeclarations).flatMap((d): Json[] => {
      const declaration = asObject(d);
      return declaration ? [declaration] : [];
    }),
  );
}

export function readGeminiPrompt(body: unknown): CountedPrompt {
  const request = asObject(body) ?? {};
  const blocks: PromptBlock[] = [];
  for (const declaration of geminiFunctionDeclarations(request)) {
    const key = canonicalJson(declaration);
    blocks.push({ key, tokens: fakeTokenCount(key), breakpoint: false, section: 'tools' });
  }
  const system = asObject(request.systemInstruction);
  if (system)
    blocks.push({ key: canonicalJson(system), tokens: contentTokens(system), breakpoint: false, section: 'system' });
  for (const content of asArray(request.contents)) {
    const object = asObject(content) ?? {};
    blocks.push({ key: canonicalJson(object), tokens: contentTokens(object), breakpoint: false, section: 'messages' });
  }
  return countPrompt('', blocks);
}
