/**
 * The context window: a request whose input exceeds it gets the real API's answer, an HTTP
 * 400 whose message states both the request's size and the maximum (the app reads the
 * maximum back out of it, SPEC.md section 8, "Recovery").
 */
import type { CountedPrompt } from './prompt-blocks.js';

/**
 * Anthropic: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is
 * too long: 200251 tokens > 200000 maximum"}}`, as reported from the live API in e.g.
 * boldsoftware/exe.dev#62 and earendil-works/pi#102.
 */
export function anthropicPromptTooLong(prompt: CountedPrompt, contextWindow: number): unknown {
  return {
    type: 'error',
    error: {
      type: 'invalid_request_error',
      message: `prompt is too long: ${prompt.inputTokens} tokens > ${contextWindow} maximum`,
    },
  };
}

/**
 * OpenAI chat completions: `context_length_exceeded` on `messages` (chathub-dev/chathub#126).
 * When the request has tools the live API splits the count and names them "functions":
 * "...resulted in 202868 tokens (202767 in the messages, 101 in the functions). Please
 * reduce the length of the messages or functions." (bytedance/deer-flow#310).
 */
export function openaiContextLengthExceeded(prompt: CountedPrompt, contextWindow: number): unknown {
  const functions = prompt.blocks
    .filter((block) => block.section === 'tools')
    .reduce((sum, block) => sum + block.tokens, 0);
  const head = `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${prompt.inputTokens} tokens`;
  const message =
    functions > 0
      ? `${head} (${prompt.inputTokens - functions} in the messages, ${functions} in the functions). Please reduce the length of the messages or functions.`
      : `${head}. Please reduce the length of the messages.`;
  return { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
}

/**
 * Gemini: 400 INVALID_ARGUMENT "The input token count (1200000) exceeds the maximum number
 * of tokens allowed (1048576).", the live API's wording as Gemini CLI users report it.
 */
export function geminiInputTooLong(prompt: CountedPrompt, contextWindow: number): unknown {
  return {
    error: {
      code: 400,
      message: `The input token count (${prompt.inputTokens}) exceeds the maximum number of tokens allowed (${contextWindow}).`,
      status: 'INVALID_ARGUMENT',
    },
  };
}
