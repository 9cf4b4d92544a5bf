/** What the server needs from a provider's wire format. */
import type { FakeReply } from './reply.js';

export interface StreamedReply {
  /** Complete SSE frames, each ending in a blank line. */
  frames: string[];
  /** How many frames carry the message start and its text: a hold waits after these. */
  textEnd: number;
}

export interface WireFormat {
  readonly name: 'anthropic' | 'openai';
  stream(reply: FakeReply, replyIndex: number): StreamedReply;
  /** An in-stream error event, as the provider sends one after a 200. */
  streamErrorFrame(error: { type: string; message: string }): string;
  /** The body of a non-2xx answer, in the provider's own error shape. */
  errorBody(status: number, message: string): unknown;
}
