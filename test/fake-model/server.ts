/**
 * A fake model server on 127.0.0.1 that speaks the real streaming wire formats, so tests
 * drive the real AI SDK providers over real HTTP. Each incoming request takes the next
 * scripted reply (or the responder's); every request is recorded for assertions.
 *
 * Like the real APIs, it counts each request's input (fake-tokenizer.ts, read block by block
 * in the provider's own structure), refuses one larger than the context window with the
 * provider's own 400, and reports prompt-cache usage as the provider would
 * (anthropic-cache.ts, openai-cache.ts).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AnthropicCache } from './anthropic-cache.js';
import { anthropicWire } from './anthropic-wire.js';
import { emptyStats, type FakeModelStats } from './fake-stats.js';
import { OpenAIPrefixCache } from './openai-cache.js';
import { geminiRoute, geminiWire } from './gemini-wire.js';
import { NoPromptCache } from './no-prompt-cache.js';
import { openaiWire } from './openai-wire.js';
import { openaiResponsesWire } from './openai-responses-wire.js';
import type { CountedPrompt } from './prompt-blocks.js';
import type { CacheAccount, PromptCache } from './prompt-cache.js';
import type { FakeReply } from './reply.js';
import { reportedUsage, type ReportedUsage } from './usage.js';
import type { WireFormat } from './wire.js';

export { createHold, type FakeReply, type FakeToolCall, type Hold } from './reply.js';
export { fakeTokenCount } from './fake-tokenizer.js';
export type { FakeModelStats } from './fake-stats.js';

export interface RecordedRequest {
  /** 0-based position among all requests this server received. */
  index: number;
  method: string;
  /** Path without the query string, e.g. /v1/messages. */
  path: string;
  /** Lower-cased names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  wire: WireFormat['name'] | undefined;
  /** True once the client hung up before the reply was complete (a cut by the script does not count). */
  clientAborted: boolean;
  /** The input the server counted (tools, system, messages; cached or not); 0 off its routes. */
  inputTokens: number;
  /** Input tokens read from the prompt cache; 0 unless the request was answered. */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache (Anthropic only); 0 unless the request was answered. */
  cacheWriteTokens: number;
  /** OpenAI's `prompt_cache_key`, when the request sent one. */
  promptCacheKey: string | undefined;
  /**
   * Set when the server refused the request itself, as the real API would, before any
   * scripted reply: over the context window, or an invalid request (more than four
   * Anthropic cache breakpoints).
   */
  refused: 'context-window' | 'invalid' | undefined;
}

/** Picks the reply to one request; undefined leaves it to the script. */
export type FakeResponder = (request: RecordedRequest) => FakeReply | undefined;

export interface FakeModel {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  /** What createAnthropic({ baseURL }) expects: the SDK posts to `${baseURL}/messages`. */
  readonly anthropicBaseURL: string;
  /** What createOpenAI / createOpenAICompatible expect: `${baseURL}/chat/completions`. */
  readonly openaiBaseURL: string;
  /** What @google/genai (GOOGLE_GEMINI_BASE_URL) expects: it posts to `${baseURL}/v1beta/models/<model>:…`. */
  readonly geminiBaseURL: string;
  readonly requests: readonly RecordedRequest[];
  /** Appends replies to the script; each request consumes one, in order. */
  enqueue(...replies: FakeReply[]): void;
  /** Scripted replies not consumed yet. */
  pending(): number;
  /**
   * Consulted for every request before the script (after the context-window check), for
   * requests whose order is not known in advance, e.g. summary requests interleaving with a
   * turn's steps. The request it sees carries its body even when keepBodies is off.
   * undefined removes it.
   */
  setResponder(responder: FakeResponder | undefined): void;
  /** Changes the context window for the requests to come; undefined removes it. */
  setContextWindow(tokens: number | undefined): void;
  /** Totals over every request so far. */
  stats(): FakeModelStats;
  close(): Promise<void>;
}

function wireFor(path: string): WireFormat | undefined {
  // The SDKs append /messages or /chat/completions to whatever base URL they are given,
  // with or without /v1, so match on the ending.
  if (path.endsWith('/messages')) return anthropicWire;
  if (path.endsWith('/chat/completions')) return openaiWire;
  // OpenAI's Responses API (Codex): `${OPENAI_BASE_URL}/responses`.
  if (path.endsWith('/responses')) return openaiResponsesWire;
  if (geminiRoute(path)) return geminiWire;
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => res.write(chunk, () => resolve()));
}

/** One request in flight: its record, and whether the script cut it on purpose. */
interface Exchange {
  record: RecordedRequest;
  reply: FakeReply | undefined;
  cutByScript: boolean;
}

async function streamReply(
  res: ServerResponse,
  wire: WireFormat,
  reply: FakeReply,
  exchange: Exchange,
  usage: ReportedUsage,
): Promise<void> {
  const { record } = exchange;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...reply.headers,
  });
  const { frames, textEnd } = wire.stream(reply, record.index, usage);
  const half = Math.max(1, Math.floor(frames.length / 2));
  const cut = reply.closeMidStream || reply.endMidStream ? half : reply.streamError ? textEnd : frames.length;
  for (const [i, frame] of frames.entries()) {
    if (reply.hold && i === textEnd) {
      reply.hold.markReached();
      await reply.hold.settled;
    }
    if (record.clientAborted) return;
    if (i === cut) break;
    await write(res, frame);
  }
  if (reply.closeMidStream) {
    exchange.cutByScript = true;
    res.destroy();
    return;
  }
  if (reply.streamError) await write(res, wire.streamErrorFrame(reply.streamError));
  res.end();
}

export interface FakeModelOptions {
  /**
   * Keep request bodies in `requests` (default true). Benchmarks turn it off: a long
   * conversation resends its whole history every step, and keeping every copy would be
   * the test's memory, not the app's.
   */
  keepBodies?: boolean;
  /**
   * The model's context window in tokens: a request whose counted input exceeds it gets the
   * provider's "prompt is too long" 400 (context-window.ts). Default: no limit.
   */
  contextWindow?: number;
  /**
   * The shortest prefix the prompt caches keep (default 1024: Anthropic's minimum for most
   * models, and OpenAI's). Tests lower it to keep their prompts small.
   */
  minCacheTokens?: number;
}

const DEFAULT_MIN_CACHE_TOKENS = 1024;

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const keepBodies = options.keepBodies ?? true;
  const minCacheTokens = options.minCacheTokens ?? DEFAULT_MIN_CACHE_TOKENS;
  let contextWindow = options.contextWindow;
  let responder: FakeResponder | undefined;
  const script: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const caches: Record<WireFormat['name'], PromptCache> = {
    anthropic: new AnthropicCache(minCacheTokens),
    openai: new OpenAIPrefixCache(minCacheTokens),
    gemini: new NoPromptCache(),
  };
  const stats = emptyStats();

  /** The server's own refusals, as the real API answers them, before any script. */
  function refusal(wire: WireFormat, prompt: CountedPrompt, record: RecordedRequest): unknown {
    const invalid = wire.invalidPrompt(prompt);
    if (invalid !== undefined) {
      record.refused = 'invalid';
      return wire.errorBody(400, invalid);
    }
    if (contextWindow !== undefined && prompt.inputTokens > contextWindow) {
      record.refused = 'context-window';
      return wire.tooLongBody(prompt, contextWindow);
    }
    return undefined;
  }

  /** The prompt was read: the cache remembers it, and the request and totals say what it did. */
  function settle(record: RecordedRequest, cache: CacheAccount, usage: ReportedUsage): void {
    cache.commit();
    record.cacheReadTokens = cache.cacheReadTokens;
    record.cacheWriteTokens = cache.cacheWriteTokens;
    stats.cacheReadTokens += cache.cacheReadTokens;
    stats.cacheWriteTokens += cache.cacheWriteTokens;
    stats.outputTokens += usage.outputTokens;
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const wire = wireFor(path);
    const body = parseJson(rawBody);
    // Counted now, before the body is dropped: benchmarks keep no bodies but want totals.
    const prompt = wire?.readPrompt(body);
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      rawBody: keepBodies ? rawBody : '',
      body: keepBodies ? body : undefined,
      wire: wire?.name,
      clientAborted: false,
      inputTokens: prompt?.inputTokens ?? 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      promptCacheKey: prompt?.promptCacheKey,
      refused: undefined,
    };
    requests.push(record);
    if (prompt) {
      stats.requests += 1;
      stats.inputTokens += prompt.inputTokens;
      stats.peakInputTokens = Math.max(stats.peakInputTokens, prompt.inputTokens);
    }
    const exchange: Exchange = { record, reply: undefined, cutByScript: false };
    res.on('close', () => {
      // 'close' after a finished response is the normal end; before it, the client left.
      if (res.writableFinished || exchange.cutByScript) return;
      record.clientAborted = true;
      exchange.reply?.hold?.markClientGone();
    });
    if (!wire || !prompt) {
      sendJson(res, 404, { error: { message: `fake model: no route for ${record.method} ${path}` } });
      return;
    }
    const refused = refusal(wire, prompt, record);
    if (refused !== undefined) {
      // Refused before the model ran: nothing is read or written, no scripted reply is used.
      stats.refused += 1;
      sendJson(res, 400, refused);
      return;
    }
    const reply = responder?.(keepBodies ? record : { ...record, rawBody, body }) ?? script.shift();
    exchange.reply = reply;
    if (!reply) {
      const message = `fake model: no scripted reply left for request #${record.index} (${record.method} ${path})`;
      sendJson(res, 500, wire.errorBody(500, message));
      return;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.status !== undefined && reply.status >= 400) {
      const errorBody = reply.errorBody ?? wire.errorBody(reply.status, `fake model: scripted ${reply.status}`);
      sendJson(res, reply.status, errorBody, reply.headers);
      return;
    }
    // Answered: the prompt was read, so the cache did its work (even when the script then
    // cuts the stream, as a real failure mid-reply would).
    const cache = caches[wire.name].account(prompt);
    const usage = reportedUsage(reply, prompt, cache);
    settle(record, cache, usage);
    if (wire.whole && geminiRoute(path) === 'whole') {
      sendJson(res, 200, wire.whole(reply, record.index, usage), reply.headers);
      return;
    }
    await streamReply(res, wire, reply, exchange, usage);
  }

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake model crashed: ${String(error)}` } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    anthropicBaseURL: `${url}/v1`,
    openaiBaseURL: `${url}/v1`,
    geminiBaseURL: url,
    requests,
    enqueue: (...replies) => void script.push(...replies),
    pending: () => script.length,
    setResponder: (next) => {
      responder = next;
    },
    setContextWindow: (tokens) => {
      contextWindow = tokens;
    },
    stats: () => ({ ...stats }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
