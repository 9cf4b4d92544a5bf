/**
 * The script a test hands the fake model: one reply per incoming request, in order. The
 * same reply is spoken in whichever wire format the request arrived in (Anthropic
 * Messages or OpenAI chat completions), so one script serves every provider.
 */

export interface FakeToolCall {
  /** Defaults to a stable id derived from the reply and call position. */
  id?: string;
  name: string;
  /** Serialized with JSON.stringify and streamed in several pieces. */
  input?: unknown;
  /** Sent verbatim instead of `input`, e.g. to stream malformed JSON. */
  rawInput?: string;
}

export interface FakeReply {
  /** Streamed as several deltas; an array gives the exact deltas. */
  text?: string | string[];
  toolCalls?: FakeToolCall[];
  /** A non-2xx status answers with an error body in the provider's own error shape. */
  status?: number;
  /** Replaces the default error body of a non-2xx reply. */
  errorBody?: unknown;
  /** Extra response headers, e.g. retry-after. */
  headers?: Record<string, string>;
  /** Sends about half the message, then destroys the socket (no message_stop / [DONE]). */
  closeMidStream?: boolean;
  /** Sends about half the message, then ends the HTTP response cleanly, unfinished. */
  endMidStream?: boolean;
  /**
   * After the text, sends an in-stream error event in the provider's shape (Anthropic
   * `event: error`, OpenAI `{"error": ...}`) and ends the response. `type` is the
   * provider's error type, e.g. overloaded_error or server_error.
   */
  streamError?: { type: string; message: string };
  /** Streams the text, then waits until the hold is released or the client goes away. */
  hold?: Hold;
  /** Waits this long before answering at all. */
  delayMs?: number;
  usage?: { inputTokens: number; outputTokens: number };
}

/**
 * A gate inside one streamed reply, for cancel tests: the test waits until the text has
 * gone out (`reached`), acts, then either sees the client hang up (`clientGone`) or lets
 * the reply finish (`release`).
 */
export interface Hold {
  readonly reached: Promise<void>;
  readonly clientGone: Promise<void>;
  release(): void;
  /** Server side: called once the held part has been written. */
  markReached(): void;
  /** Server side: called when the client closed the connection before the reply ended. */
  markClientGone(): void;
  /** Server side: resolves on release or on the client going away. */
  readonly settled: Promise<void>;
}

function resolvable(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

export function createHold(): Hold {
  const reached = resolvable();
  const clientGone = resolvable();
  const released = resolvable();
  return {
    reached: reached.promise,
    clientGone: clientGone.promise,
    release: () => released.resolve(),
    markReached: () => reached.resolve(),
    markClientGone: () => clientGone.resolve(),
    settled: Promise.race([released.promise, clientGone.promise]),
  };
}

/** Splits text into word-sized deltas that join back to the original. */
export function textDeltas(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Tool input as the wire carries it: a JSON text in (at least) three pieces. */
export function toolInputPieces(call: FakeToolCall): string[] {
  const json = call.rawInput ?? JSON.stringify(call.input ?? {});
  const size = Math.max(1, Math.ceil(json.length / 3));
  const pieces: string[] = [];
  for (let at = 0; at < json.length; at += size) pieces.push(json.slice(at, at + size));
  return pieces.length > 0 ? pieces : [''];
}

export function toolCallId(call: FakeToolCall, replyIndex: number, callIndex: number): string {
  return call.id ?? `call_${replyIndex}_${callIndex}`;
}
