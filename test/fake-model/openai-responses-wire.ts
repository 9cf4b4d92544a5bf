/**
 * OpenAI's Responses API streaming format (`POST …/responses`), which Codex speaks: typed
 * SSE events, each output item announced, streamed and closed, and `response.completed`
 * last with the usage. A tool call whose scripted input is a string is a free-form
 * ("custom") tool's call, as Codex's `apply_patch` is; any other is a function call.
 */
import { openaiContextLengthExceeded } from './context-window.js';
import { fakeTokenCount } from './fake-tokenizer.js';
import {
  asArray,
  asObject,
  canonicalJson,
  countPrompt,
  type CountedPrompt,
  type PromptBlock,
} from './prompt-blocks.js';
import { textDeltas, toolCallId, toolInputPieces, type FakeReply, type FakeToolCall } from './reply.js';
import { uncountedUsage, type ReportedUsage } from './usage.js';
import type { StreamedReply, WireFormat } from './wire.js';

const CREATED_AT = 1_700_000_000;

function frame(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function responseObject(id: string, status: string, output: unknown[], usage?: ReportedUsage): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: CREATED_AT,
    status,
    model: 'fake-model',
    output,
    ...(usage
      ? {
          usage: {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: usage.cacheReadTokens },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        }
      : {}),
  };
}

/** A tool call's output item, whole, as `response.output_item.done` carries it. */
function callItem(call: FakeToolCall, id: string): Record<string, unknown> {
  if (typeof call.input === 'string') {
    return {
      type: 'custom_tool_call',
      id: `ctc_${id}`,
      call_id: id,
      name: call.name,
      input: call.input,
      status: 'completed',
    };
  }
  const args = call.rawInput ?? JSON.stringify(call.input ?? {});
  return { type: 'function_call', id: `fc_${id}`, call_id: id, name: call.name, arguments: args, status: 'completed' };
}

function stream(reply: FakeReply, replyIndex: number, counted?: ReportedUsage): StreamedReply {
  const usage = counted ?? uncountedUsage(reply);
  const id = `resp_${replyIndex}`;
  let seq = 0;
  const event = (type: string, data: Record<string, unknown>) => frame(type, { sequence_number: seq++, ...data });
  const frames = [event('response.created', { response: responseObject(id, 'in_progress', []) })];
  const output: Record<string, unknown>[] = [];
  const deltas = textDeltas(reply.text);
  if (deltas.length > 0) {
    const itemId = `msg_${replyIndex}`;
    const text = deltas.join('');
    const at = output.length;
    frames.push(
      event('response.output_item.added', {
        output_index: at,
        item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
      }),
      event('response.content_part.added', {
        item_id: itemId,
        output_index: at,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
      ...deltas.map((delta) =>
        event('response.output_text.delta', { item_id: itemId, output_index: at, content_index: 0, delta }),
      ),
    );
    const item = {
      type: 'message',
      id: itemId,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    output.push(item);
    frames.push(
      event('response.output_text.done', { item_id: itemId, output_index: at, content_index: 0, text }),
      event('response.output_item.done', { output_index: at, item }),
    );
  }
  const textEnd = frames.length;
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const item = callItem(call, toolCallId(call, replyIndex, index));
    const at = output.length;
    const itemId = String(item.id);
    if (item.type === 'function_call') {
      frames.push(
        event('response.output_item.added', { output_index: at, item: { ...item, arguments: '' } }),
        ...toolInputPieces(call).map((delta) =>
          event('response.function_call_arguments.delta', { item_id: itemId, output_index: at, delta }),
        ),
        event('response.function_call_arguments.done', {
          item_id: itemId,
          output_index: at,
          arguments: item.arguments,
        }),
      );
    } else {
      frames.push(event('response.output_item.added', { output_index: at, item: { ...item, input: '' } }));
    }
    frames.push(event('response.output_item.done', { output_index: at, item }));
    output.push(item);
  }
  frames.push(event('response.completed', { response: responseObject(id, 'completed', output, usage) }));
  return { frames, textEnd };
}

/** The request as OpenAI counts and caches it: its tools, its instructions, then each input item. */
function readResponsesPrompt(body: unknown): CountedPrompt {
  const request = asObject(body) ?? {};
  const blocks: PromptBlock[] = [];
  for (const tool of asArray(request.tools)) {
    const key = canonicalJson(tool);
    blocks.push({ key, tokens: fakeTokenCount(key), breakpoint: false, section: 'tools' });
  }
  if (typeof request.instructions === 'string') {
    const key = request.instructions;
    blocks.push({ key, tokens: fakeTokenCount(key), breakpoint: false, section: 'system' });
  }
  for (const item of asArray(request.input)) {
    const key = canonicalJson(item);
    blocks.push({ key, tokens: fakeTokenCount(key), breakpoint: false, section: 'messages' });
  }
  const cacheKey = request.prompt_cache_key;
  return countPrompt(String(request.model ?? ''), blocks, {
    promptCacheKey: typeof cacheKey === 'string' ? cacheKey : undefined,
  });
}

export const openaiResponsesWire: WireFormat = {
  name: 'openai',
  stream,
  streamErrorFrame: (error) =>
    frame('response.failed', {
      response: { ...responseObject('resp_failed', 'failed', []), error: { code: error.type, message: error.message } },
    }),
  errorBody: (status, message) => ({
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null },
  }),
  readPrompt: readResponsesPrompt,
  invalidPrompt: () => undefined,
  tooLongBody: openaiContextLengthExceeded,
};
