/** What the server needs from a provider's wire format. */
import type { CountedPrompt } from './prompt-blocks.js';
import type { FakeReply } from './reply.js';
import type { ReportedUsage } from './usage.js';

export interface StreamedReply {
  /** Complete SSE frames, each ending in a blank line. */
  frames: string[];
  /** How many frames carry the message start and its text: a hold waits after these. */
  textEnd: number;
}

export interface WireFormat {
  readonly name: 'anthropic' | 'openai' | 'gemini';
  /** `usage` is what the server counted; without it, usage.ts's uncountedUsage. */
  stream(reply: FakeReply, replyIndex: number, usage?: ReportedUsage): StreamedReply;
  /** The whole answer as one JSON body, for a wire whose request path asks for no stream (Gemini's). */
  whole?(reply: FakeReply, replyIndex: number, usage?: ReportedUsage): unknown;
  /** An in-stream error event, as the provider sends one after a 200. */
  streamErrorFrame(error: { type: string; message: string }): string;
  /** The body of a non-2xx answer, in the provider's own error shape. */
  errorBody(status: number, message: string): unknown;
  /** The request body as the provider counts and caches it. */
  readPrompt(body: unknown): CountedPrompt;
  /** A request the real API refuses with a 400 whatever its size (its message), else undefined. */
  invalidPrompt(prompt: CountedPrompt): string | undefined;
  /** The body of the real API's 400 for a request larger than the context window. */
  tooLongBody(prompt: CountedPrompt, contextWindow: number): unknown;
}
