/** The Anthropic Messages streaming format (https://docs.anthropic.com/en/api/messages-streaming). */
import { breakpointLimitError } from './anthropic-cache.js';
import { readAnthropicPrompt } from './anthropic-prompt.js';
import { anthropicPromptTooLong } from './context-window.js';
import { textDeltas, toolCallId, toolInputPieces, type FakeReply } from './reply.js';
import { uncountedUsage, type ReportedUsage } from './usage.js';
import type { StreamedReply, WireFormat } from './wire.js';

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

function stream(reply: FakeReply, replyIndex: number, counted?: ReportedUsage): StreamedReply {
  const usage = counted ?? uncountedUsage(reply);
  const frames = [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${replyIndex}`,
        type: 'message',
        role: 'assistant',
        model: 'fake-model',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // input_tokens is only what the cache neither read nor wrote; the total is the sum.
        usage: {
          input_tokens: usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens,
          cache_creation_input_tokens: usage.cacheWriteTokens,
          cache_read_input_tokens: usage.cacheReadTokens,
          output_tokens: 1,
        },
      },
    }),
    frame('ping', { type: 'ping' }),
  ];
  let index = 0;
  const deltas = textDeltas(reply.text);
  if (deltas.length > 0) {
    frames.push(
      frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      ...deltas.map((text) =>
        frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }),
      ),
      frame('content_block_stop', { type: 'content_block_stop', index }),
    );
    index += 1;
  }
  const textEnd = frames.length;
  for (const [callIndex, call] of (reply.toolCalls ?? []).entries()) {
    const id = toolCallId(call, replyIndex, callIndex);
    frames.push(
      frame('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: call.name, input: {} },
      }),
      ...toolInputPieces(call).map((partial_json) =>
        frame('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json },
        }),
      ),
      frame('content_block_stop', { type: 'content_block_stop', index }),
    );
    index += 1;
  }
  const stopReason = (reply.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
  frames.push(
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
    frame('message_stop', { type: 'message_stop' }),
  );
  return { frames, textEnd };
}

export const anthropicWire: WireFormat = {
  name: 'anthropic',
  stream,
  streamErrorFrame: (error) => frame('error', { type: 'error', error }),
  errorBody: (status, message) => ({ type: 'error', error: { type: errorType(status), message } }),
  readPrompt: readAnthropicPrompt,
  invalidPrompt: breakpointLimitError,
  tooLongBody: anthropicPromptTooLong,
};
