/**
 * An agent's model host reached from inside its jail through a Unix socket of the app's,
 * in a private 0700 folder, forwarded into the jail like the gate's socket. Two kinds:
 * - a plain relay to a model server on this machine's loopback (127.0.0.1:<port>): the jail
 *   has a network namespace of its own and the proxy rightly refuses this machine's own
 *   addresses, so a local model server (a person's, or a test's fake) gets a byte pipe;
 * - a keyed relay, when the agent uses the key saved in Gatehouse: an HTTP relay to one
 *   fixed upstream (the agent's model host, or that local server) that puts the key in
 *   each request itself, so the agent is given a placeholder and the key never enters the
 *   jail.
 * Either says when it cannot reach its upstream (`onUnreachable`), since the agent's CLI
 * only retries and the person would otherwise see nothing but "working".
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';

export interface ModelRelay {
  /** The relay's host socket, for the jail's forward. */
  socket: string;
  close(): Promise<void>;
}

/** What the agent is given for its key when the relay adds the real one: a value no provider accepts. */
export const RELAY_PLACEHOLDER_KEY = 'gatehouse-adds-the-key-outside-the-jail';

/** Why a connection to the upstream failed, in words (never a key: only a host and an error code). */
export interface Unreachable {
  /** host:port as dialled. */
  host: string;
  /** "connection refused", "no such host", or the error's code. */
  why: string;
}

export interface RelayOptions {
  /** The folder the socket's folder is made in: /tmp (never inside a jail's sight: each has a private /tmp) unless a test names another. */
  parent?: string;
  onUnreachable?: (what: Unreachable) => void;
}

/** Starts a plain relay to 127.0.0.1:<port>. */
export async function startModelRelay(port: number, options: RelayOptions = {}): Promise<ModelRelay> {
  const open = new Set<net.Socket>();
  const server = net.createServer((inside) => {
    const outside = net.connect({ host: '127.0.0.1', port });
    let connected = false;
    outside.once('connect', () => (connected = true));
    outside.once('error', (err: NodeJS.ErrnoException) => {
      if (!connected) options.onUnreachable?.({ host: `127.0.0.1:${port}`, why: words(err) });
    });
    for (const s of [inside, outside]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      // A reset on either side ends both; nothing is thrown at the app.
      s.on('error', () => {
        inside.destroy();
        outside.destroy();
      });
    }
    inside.pipe(outside).pipe(inside);
  });
  return listenOnSocket(server, options.parent, () => {
    for (const s of open) s.destroy();
  });
}

/**
 * Starts a keyed relay to `upstream` (an origin: `https://api.anthropic.com`, or
 * `http://127.0.0.1:<port>`): each request goes there with the agent's path, its key header
 * replaced by `key` (`x-api-key`, Anthropic's), any other credential header dropped.
 */
export async function startKeyedModelRelay(
  upstream: string,
  key: string,
  options: RelayOptions = {},
): Promise<ModelRelay> {
  const base = new URL(upstream);
  if ((base.protocol !== 'https:' && base.protocol !== 'http:') || base.pathname !== '/' || base.search) {
    throw new Error(`the model relay's upstream must be an origin, not ${JSON.stringify(upstream)}`);
  }
  const client = base.protocol === 'https:' ? https : http;
  const host = `${base.hostname}:${base.port || (base.protocol === 'https:' ? 443 : 80)}`;
  const open = new Set<http.ClientRequest>();
  const server = http.createServer((req, res) => {
    // Only a path is taken from the agent: the host, the scheme and the key are the relay's.
    const target = upstreamTarget(base, req.url);
    const out = client.request(target, { method: req.method, headers: forwardedHeaders(req.headers, base, key) });
    open.add(out);
    out.on('close', () => open.delete(out));
    out.on('response', (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    });
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (!res.headersSent) options.onUnreachable?.({ host, why: words(err) });
      if (res.headersSent) return void res.destroy();
      // The provider's own error shape, so the agent reads it as an outage and retries.
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'api_error', message: `Gatehouse could not reach ${host}: ${words(err)}` },
        }),
      );
    });
    req.pipe(out);
    req.on('aborted', () => out.destroy());
  });
  return listenOnSocket(server, options.parent, () => {
    for (const r of open) r.destroy();
    server.closeAllConnections();
  });
}

/**
 * The upstream URL for a request's target: the relay's origin with the agent's path and
 * query. Never resolved against the origin, where "//other.host/x" or an absolute URL would
 * name another host, and the saved key would go there.
 */
export function upstreamTarget(base: URL, requestTarget: string | undefined): URL {
  const target = new URL(base.origin);
  const raw = requestTarget?.startsWith('/') ? requestTarget : '/';
  const query = raw.indexOf('?');
  target.pathname = query < 0 ? raw : raw.slice(0, query);
  target.search = query < 0 ? '' : raw.slice(query);
  if (target.origin !== base.origin) throw new Error('the request names another host');
  return target;
}

/** Hop-by-hop headers, which a relay never passes on; and every header that may carry a credential. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'authorization',
  'x-api-key',
  'cookie',
]);

function forwardedHeaders(headers: http.IncomingHttpHeaders, base: URL, key: string): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !DROPPED.has(name.toLowerCase())) out[name] = value;
  }
  out.host = base.host;
  out['x-api-key'] = key;
  return out;
}

function words(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the host';
    default:
      return err.code ?? err.message;
  }
}

async function listenOnSocket(
  server: net.Server | http.Server,
  parent = '/tmp',
  dropOpen: () => void,
): Promise<ModelRelay> {
  const folder = await fs.mkdtemp(path.join(parent, 'gatehouse-model-'));
  await fs.chmod(folder, 0o700);
  const socket = path.join(folder, 'model.sock');
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
  } catch (err) {
    await fs.rm(folder, { recursive: true, force: true });
    throw err;
  }
  return {
    socket,
    close: async () => {
      dropOpen();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(folder, { recursive: true, force: true });
    },
  };
}
