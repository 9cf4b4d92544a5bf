/**
 * The gate's MCP face under input no honest client sends: raw HTTP on its socket. Each
 * gets a clear error, nothing is logged, and the face goes on serving.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { GATE_MCP_BODY_MAX_BYTES } from '../../../../../electron/core/agents/gate-mcp-server.js';
import { startGateHarness, type GateHarness } from './gate-mcp-harness.js';

let g: GateHarness | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

interface Answered {
  status: number;
  body: string;
}

/** One raw request on the socket, as an MCP client would make it but for the body. */
function raw(
  socketPath: string,
  body: string | Buffer,
  opts: { method?: string; path?: string } = {},
): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath,
        path: opts.path ?? '/mcp',
        method: opts.method ?? 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // The server may answer (and close) before it has read a body it refuses.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    req.end(opts.method === 'GET' ? undefined : body);
  });
}

/** Still serving: a real client lists the tools. */
async function stillServes(gh: GateHarness): Promise<void> {
  expect((await gh.client.listTools()).tools.length).toBe(5);
}

async function loggedCount(gh: GateHarness): Promise<number> {
  return (await gh.h.events(gh.id)).length;
}

describe('bad input on the socket', () => {
  it('answers malformed JSON with a parse error', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const before = await loggedCount(g);
    const r = await raw(g.socketPath, '{"jsonrpc": "2.0", "method": "tools/call", ');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: -32700 } });
    expect(await loggedCount(g)).toBe(before);
    await stillServes(g);
  });

  it(`refuses a body over ${GATE_MCP_BODY_MAX_BYTES} bytes before reading it as a call`, async () => {
    g = await startGateHarness();
    await g.startTurn();
    const before = await loggedCount(g);
    const content = 'x'.repeat(GATE_MCP_BODY_MAX_BYTES);
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: 'big.txt', content } },
    };
    const r = await raw(g.socketPath, JSON.stringify(call));
    expect(r.status).toBe(413);
    expect(await loggedCount(g)).toBe(before);
    await stillServes(g);
  });

  it("answers a call whose arguments are not an object with the SDK's error naming the field", async () => {
    g = await startGateHarness();
    await g.startTurn();
    const before = await loggedCount(g);
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'write_file', arguments: 5 } };
    const r = await raw(g.socketPath, JSON.stringify(call));
    // The SDK checks the request's shape before the face sees it: an error result, with zod's words.
    const data = JSON.parse(r.body.replace(/^event: message\ndata: /, '')) as { error: { message: string } };
    expect(data.error.message).toMatch(/"arguments"[\s\S]*expected record, received number/);
    expect(await loggedCount(g)).toBe(before);
    await stillServes(g);
  });

  it('answers another path with 404 and another method with 405', async () => {
    g = await startGateHarness();
    expect((await raw(g.socketPath, '{}', { path: '/other' })).status).toBe(404);
    const get = await raw(g.socketPath, '', { method: 'GET' });
    expect(get.status).toBe(405);
    expect(JSON.parse(get.body)).toMatchObject({ error: { message: 'GET is not supported; use POST' } });
    await stillServes(g);
  });
});
