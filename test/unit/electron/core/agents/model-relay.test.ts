/**
 * The relays an agent's model host is reached through from inside its jail: the keyed one
 * puts the key saved in Gatehouse on each request itself (the agent holds a stand-in), and
 * both say, in words, when they cannot reach their upstream.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RELAY_PLACEHOLDER_KEY,
  startKeyedModelRelay,
  startModelRelay,
  type ModelRelay,
  type Unreachable,
} from '../../../../../electron/core/agents/model-relay.js';

const SAVED = 'sk-ant-saved-0123456789abcdef';
let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  cleanup = [];
});

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function upstream(): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: one\ndata: {}\n\n');
      res.end('event: two\ndata: {}\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A request over the relay's socket, as the agent makes it from inside. */
function ask(relay: ModelRelay, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: relay.socket, path: '/v1/messages?beta=true', method: 'POST', headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function keyed(port: number, told: Unreachable[] = []): Promise<ModelRelay> {
  const relay = await startKeyedModelRelay(`http://127.0.0.1:${port}`, SAVED, {
    parent: '/var/tmp',
    onUnreachable: (what) => told.push(what),
  });
  cleanup.push(() => relay.close());
  return relay;
}

describe('the keyed relay', () => {
  it('sends the saved key in place of the agent’s stand-in, drops any other credential, and streams the answer back', async () => {
    const up = await upstream();
    const relay = await keyed(up.port);
    const got = await ask(
      relay,
      {
        'x-api-key': RELAY_PLACEHOLDER_KEY,
        authorization: 'Bearer planted',
        cookie: 'a=b',
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
        host: 'evil.example',
      },
      '{"model":"claude"}',
    );
    expect(got).toEqual({ status: 200, text: 'event: one\ndata: {}\n\nevent: two\ndata: {}\n\n' });
    expect(up.seen).toHaveLength(1);
    const [seen] = up.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/messages?beta=true', body: '{"model":"claude"}' });
    expect(seen!.headers['x-api-key']).toBe(SAVED);
    expect(seen!.headers.authorization).toBeUndefined();
    expect(seen!.headers.cookie).toBeUndefined();
    expect(seen!.headers.host).toBe(`127.0.0.1:${up.port}`);
    expect(seen!.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('answers a host it cannot reach with the provider’s error shape, says so once per connection, and never shows the key', async () => {
    const port = await closedPort();
    const told: Unreachable[] = [];
    const relay = await keyed(port, told);
    const got = await ask(relay, { 'x-api-key': RELAY_PLACEHOLDER_KEY });
    expect(got.status).toBe(502);
    expect(JSON.parse(got.text)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: `Gatehouse could not reach 127.0.0.1:${port}: connection refused` },
    });
    expect(got.text).not.toContain(SAVED);
    expect(told).toEqual([{ host: `127.0.0.1:${port}`, why: 'connection refused' }]);
  });

  it('sends every request to its one upstream, whatever host the request line names', async () => {
    const up = await upstream();
    const relay = await keyed(up.port);
    for (const target of ['//evil.example/steal?x=1', 'http://evil.example/steal', '/v1/../../x']) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ socketPath: relay.socket, path: target, method: 'GET' }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
    }
    expect(up.seen.map((s) => [s.url, s.headers.host])).toEqual([
      ['//evil.example/steal?x=1', `127.0.0.1:${up.port}`],
      ['/', `127.0.0.1:${up.port}`],
      ['/x', `127.0.0.1:${up.port}`],
    ]);
  });

  it('takes only an origin as its upstream', async () => {
    await expect(startKeyedModelRelay('https://api.anthropic.com/v1', SAVED)).rejects.toThrow(
      "the model relay's upstream must be an origin",
    );
  });
});

describe('the plain relay to a port on this machine', () => {
  it('says when nothing listens there', async () => {
    const port = await closedPort();
    const told: Unreachable[] = [];
    const relay = await startModelRelay(port, { parent: '/var/tmp', onUnreachable: (what) => told.push(what) });
    cleanup.push(() => relay.close());
    await ask(relay, {}).catch(() => undefined);
    expect(told).toEqual([{ host: `127.0.0.1:${port}`, why: 'connection refused' }]);
  });

  it('says nothing while the host answers', async () => {
    const up = await upstream();
    const told: Unreachable[] = [];
    const relay = await startModelRelay(up.port, { parent: '/var/tmp', onUnreachable: (what) => told.push(what) });
    cleanup.push(() => relay.close());
    expect((await ask(relay, { 'x-api-key': 'agent-own' })).status).toBe(200);
    // A plain relay passes bytes: the agent's own key goes as it sent it.
    expect(up.seen[0]!.headers['x-api-key']).toBe('agent-own');
    expect(told).toEqual([]);
  });
});
