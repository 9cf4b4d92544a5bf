/**
 * The Gemini API's `generateContent` format, as `@google/genai` (and so Gemini CLI) speaks
 * it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` streams
 * GenerateContentResponse chunks as SSE `data:` lines; `:generateContent` answers one
 * whole response. Text comes in several chunks; each function call comes whole in one
 * `functionCall` part (the real API never splits one); the last chunk carries
 * `finishReason` and `usageMetadata`, without which Gemini CLI treats the stream as broken
 * and retries.
 */
import { geminiInputTooLong } from './context-window.js';
import { readGeminiPrompt } from './gemini-prompt.js';
import { textDeltas, type FakeReply } from './reply.js';
import { uncountedUsage, type ReportedUsage } from './usage.js';
import type { StreamedReply, WireFormat } from './wire.js';

/** The request paths this wire answers, and whether the answer streams. */
export function geminiRoute(path: string): 'stream' | 'whole' | undefined {
  if (/\/models\/[^/]+:streamGenerateContent$/.test(path)) return 'stream';
  if (/\/models\/[^/]+:generateContent$/.test(path)) return 'whole';
  return undefined;
}

function status(code: number): string {
  if (code === 400) return 'INVALID_ARGUMENT';
  if (code === 401) return 'UNAUTHENTICATED';
  if (code === 403) return 'PERMISSION_DENIED';
  if (code === 404) return 'NOT_FOUND';
  if (code === 429) return 'RESOURCE_EXHAUSTED';
  if (code === 503) return 'UNAVAILABLE';
  if (code >= 500) return 'INTERNAL';
  return 'FAILED_PRECONDITION';
}

function usageMetadata(usage: ReportedUsage): Record<string, number> {
  return {
    // promptTokenCount counts the cached tokens too, as on the real API.
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens > 0 ? { cachedContentTokenCount: usage.cacheReadTokens } : {}),
  };
}

function chunk(replyIndex: number, parts: unknown[], end?: ReportedUsage): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(end ? { finishReason: 'STOP' } : {}) }],
    ...(end ? { usageMetadata: usageMetadata(end) } : {}),
    modelVersion: 'fake-model',
    responseId: `resp_${replyIndex}`,
  };
}

function callParts(reply: FakeReply): unknown[] {
  // A raw (possibly malformed) input has no JSON form to put in `args`: it is parsed or dropped.
  return (reply.toolCalls ?? []).map((call) => ({
    functionCall: {
      name: call.name,
      args: call.rawInput !== undefined ? safeParse(call.rawInput) : (call.input ?? {}),
    },
  }));
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function stream(reply: FakeReply, replyIndex: number, counted?: ReportedUsage): StreamedReply {
  const usage = counted ?? uncountedUsage(reply);
  const frame = (body: unknown): string => `data: ${JSON.stringify(body)}\n\n`;
  const frames = textDeltas(reply.text).map((text) => frame(chunk(replyIndex, [{ text }])));
  const textEnd = frames.length;
  frames.push(...callParts(reply).map((part) => frame(chunk(replyIndex, [part]))));
  // The last chunk ends the candidate; an empty text part keeps it a valid content.
  frames.push(frame(chunk(replyIndex, [{ text: '' }], usage)));
  return { frames, textEnd };
}

/** The non-streaming answer: every part in one response. */
export function geminiWholeBody(reply: FakeReply, replyIndex: number, counted?: ReportedUsage): unknown {
  const usage = counted ?? uncountedUsage(reply);
  const text = textDeltas(reply.text).join('');
  const parts = [...(text ? [{ text }] : []), ...callParts(reply)];
  return chunk(replyIndex, parts.length > 0 ? parts : [{ text: '' }], usage);
}

function errorBody(code: number, message: string): unknown {
  return { error: { code, message, status: status(code) } };
}

export const geminiWire: WireFormat = {
  name: 'gemini',
  stream,
  whole: geminiWholeBody,
  streamErrorFrame: (error) => `data: ${JSON.stringify(errorBody(500, `${error.type}: ${error.message}`))}\n\n`,
  errorBody,
  readPrompt: readGeminiPrompt,
  invalidPrompt: () => undefined,
  tooLongBody: geminiInputTooLong,
};
