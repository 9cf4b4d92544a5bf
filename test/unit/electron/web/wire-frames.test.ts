/**
 * Over the socket, a frame that is not a call (not JSON, binary, the wrong shape, too big)
 * gets a clear error and changes nothing: no session appears and no log is written.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer } from '../../../../electron/web/server.js';
import { newToken } from '../../../../electron/web/token.js';
import { WIRE_MAX_FRAME_BYTES } from '../../../../shared/wire.js';
import { exchange, startWebHarness, tokenProtocols, type WebHarness } from './web-harness.js';

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe('malformed frames', () => {
  it.each([
    ['not JSON', '{"t":"call",', { t: 'error', error: expect.stringContaining('not JSON') }],
    ['binary', Buffer.from([1, 2, 3]), { t: 'error', error: 'frames must be JSON text, not binary' }],
    ['an array', '[1,2]', { t: 'error', error: expect.stringContaining('bad frame') }],
    ['a frame with no id', '{"t":"call","name":"sessions.list","payload":{}}', { t: 'error' }],
    [
      'a frame of the wrong kind',
      '{"t":"reply","id":4,"name":"sessions.list","payload":{}}',
      { t: 'reply', id: 4, reply: { ok: false, error: expect.stringContaining('bad frame: t') } },
    ],
    [
      'an extra field',
      '{"t":"call","id":5,"name":"sessions.list","payload":{},"admin":true}',
      { t: 'reply', id: 5, reply: { ok: false, error: expect.stringContaining('admin') } },
    ],
    [
      'an unknown call',
      '{"t":"call","id":6,"name":"system.exec","payload":{}}',
      { t: 'reply', id: 6, reply: { ok: false, error: 'unknown call "system.exec"' } },
    ],
    [
      'a bad payload',
      '{"t":"call","id":7,"name":"sessions.open","payload":{"workspace":42}}',
      { t: 'reply', id: 7, reply: { ok: false, error: expect.stringContaining('bad request for sessions.open') } },
    ],
  ])('%s gets a clear error and changes no state', async (_what, frame, expected) => {
    w = await startWebHarness();
    const ws = await w.socket();
    expect(await exchange(ws, frame)).toMatchObject(expected);
    // The socket still works, and nothing changed.
    expect(await exchange(ws, '{"t":"call","id":9,"name":"sessions.list","payload":{}}')).toEqual({
      t: 'reply',
      id: 9,
      reply: { ok: true, data: [] },
    });
    expect(await fs.readdir(path.join(w.h.dataDir, 'sessions')).catch(() => [])).toEqual([]);
    ws.close();
  });

  it('a frame over the size cap closes the socket (1009) and changes nothing', async () => {
    w = await startWebHarness();
    const id = await w.h.open();
    const log = path.join(w.h.dataDir, 'sessions', id, 'events.jsonl');
    const logBefore = await fs.readFile(log, 'utf8').catch(() => 'absent');
    const ws = await w.socket();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const text = 'x'.repeat(WIRE_MAX_FRAME_BYTES);
    ws.send(JSON.stringify({ t: 'call', id: 1, name: 'session.send', payload: { id, text } }));
    expect(await closed).toBe(1009);
    expect(await fs.readFile(log, 'utf8').catch(() => 'absent')).toBe(logBefore);
    expect(await w.h.events(id)).toEqual([]);
    expect((await w.h.call('sessions.list', {})).map((s) => s.id)).toEqual([id]);
  });
});

describe('a peer that stops answering', () => {
  it('is cut after a missed ping, and one that answers stays', async () => {
    w = await startWebHarness();
    const token = newToken();
    const server = await startWebServer({ host: w.h.core.host, token, staticDir: w.staticDir, heartbeatMs: 40 });
    try {
      const headers = { Origin: `http://127.0.0.1:${server.port}` };
      const protocols = tokenProtocols(token);
      const silent = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, protocols, { headers, autoPong: false });
      const lively = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, protocols, { headers });
      await Promise.all([silent, lively].map((s) => new Promise((r) => s.once('open', r))));
      const cut = await new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)));
      expect(cut).toBe(1006);
      expect(lively.readyState).toBe(WebSocket.OPEN);
      lively.close();
    } finally {
      await server.close();
    }
  });
});
