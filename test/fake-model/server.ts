/**
 * A fake model server on 127.0.0.1 that speaks the real streaming wire formats, so tests
 * drive the real AI SDK providers over real HTTP. Each incoming request takes the next
 * scripted reply; every request is recorded for assertions.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicWire } from './anthropic-wire.js';
import { openaiWire } from './openai-wire.js';
import type { FakeReply } from './reply.js';
import type { WireFormat } from './wire.js';

export { createHold, type FakeReply, type FakeToolCall, type Hold } from './reply.js';

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
}

export interface FakeModel {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  /** What createAnthropic({ baseURL }) expects: the SDK posts to `${baseURL}/messages`. */
  readonly anthropicBaseURL: string;
  /** What createOpenAI / createOpenAICompatible expect: `${baseURL}/chat/completions`. */
  readonly openaiBaseURL: string;
  readonly requests: readonly RecordedRequest[];
  /** Appends replies to the script; each request consumes one, in order. */
  enqueue(...replies: FakeReply[]): void;
  /** Scripted replies not consumed yet. */
  pending(): number;
  close(): Promise<void>;
}

function wireFor(path: string): WireFormat | undefined {
  // The SDKs append /messages or /chat/completions to whatever base URL they are given,
  // with or without /v1, so match on the ending.
  if (path.endsWith('/messages')) return anthropicWire;
  if (path.endsWith('/chat/completions')) return openaiWire;
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

async function streamReply(res: ServerResponse, wire: WireFormat, reply: FakeReply, exchange: Exchange): Promise<void> {
  const { record } = exchange;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...reply.headers,
  });
  const { frames, textEnd } = wire.stream(reply, record.index);
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
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const keepBodies = options.keepBodies ?? true;
  const script: FakeReply[] = [];
  const requests: RecordedRequest[] = [];

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const wire = wireFor(path);
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      rawBody: keepBodies ? rawBody : '',
      body: keepBodies ? parseJson(rawBody) : undefined,
      wire: wire?.name,
      clientAborted: false,
    };
    requests.push(record);
    const exchange: Exchange = { record, reply: undefined, cutByScript: false };
    res.on('close', () => {
      // 'close' after a finished response is the normal end; before it, the client left.
      if (res.writableFinished || exchange.cutByScript) return;
      record.clientAborted = true;
      exchange.reply?.hold?.markClientGone();
    });
    if (!wire) {
      sendJson(res, 404, { error: { message: `fake model: no route for ${record.method} ${path}` } });
      return;
    }
    const reply = script.shift();
    exchange.reply = reply;
    if (!reply) {
      const message = `fake model: no scripted reply left for request #${record.index} (${record.method} ${path})`;
      sendJson(res, 500, wire.errorBody(500, message));
      return;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.status !== undefined && reply.status >= 400) {
      const body = reply.errorBody ?? wire.errorBody(reply.status, `fake model: scripted ${reply.status}`);
      sendJson(res, reply.status, body, reply.headers);
      return;
    }
    await streamReply(res, wire, reply, exchange);
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
    requests,
    enqueue: (...replies) => void script.push(...replies),
    pending: () => script.length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
