/**
 * The OpenAI chat-completions streaming format, which OpenAI-compatible servers (Ollama,
 * LM Studio, vLLM, llama.cpp, OpenRouter) speak too.
 */
import { openaiContextLengthExceeded } from './context-window.js';
import { readOpenAIPrompt } from './openai-prompt.js';
import { textDeltas, toolCallId, toolInputPieces, type FakeReply } from './reply.js';
import { uncountedUsage, type ReportedUsage } from './usage.js';
import type { StreamedReply, WireFormat } from './wire.js';

function errorType(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 403) return { type: 'invalid_request_error', code: 'unsupported_country_region_territory' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

function stream(reply: FakeReply, replyIndex: number, counted?: ReportedUsage): StreamedReply {
  const usage = counted ?? uncountedUsage(reply);
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({
      id: `chatcmpl-${replyIndex}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [{ index: 0, finish_reason: null, ...choice }],
      ...extra,
    })}\n\n`;
  const frames = [chunk({ delta: { role: 'assistant', content: '' } })];
  frames.push(...textDeltas(reply.text).map((content) => chunk({ delta: { content } })));
  const textEnd = frames.length;
  const calls = reply.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const id = toolCallId(call, replyIndex, index);
    // The first piece names the call; the arguments follow in later pieces.
    frames.push(
      chunk({ delta: { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] } }),
      ...toolInputPieces(call).map((args) =>
        chunk({ delta: { tool_calls: [{ index, function: { arguments: args } }] } }),
      ),
    );
  }
  frames.push(
    chunk({ delta: {}, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }),
    `data: ${JSON.stringify({
      id: `chatcmpl-${replyIndex}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
        // prompt_tokens counts the cached tokens too; OpenAI reports no cache writes.
        prompt_tokens_details: { cached_tokens: usage.cacheReadTokens },
      },
    })}\n\n`,
    'data: [DONE]\n\n',
  );
  return { frames, textEnd };
}

export const openaiWire: WireFormat = {
  name: 'openai',
  stream,
  streamErrorFrame: (error) => `data: ${JSON.stringify({ error: { ...error, param: null, code: null } })}\n\n`,
  errorBody: (status, message) => ({ error: { message, ...errorType(status), param: null } }),
  readPrompt: readOpenAIPrompt,
  invalidPrompt: () => undefined,
  tooLongBody: openaiContextLengthExceeded,
};
