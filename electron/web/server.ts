/**
 * The web host: the built renderer over HTTP and the contract over one WebSocket, for a
 * browser on this machine. Nothing is served without the token; every request must name
 * this host, and the socket must come from this origin. Only the binding differs from
 * Electron: calls go to the same Host.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Host } from '../core/host.js';
import { WIRE_MAX_FRAME_BYTES, WIRE_PATH } from '../../shared/wire.js';
import { checkBind, DEFAULT_HOST } from './bind-address.js';
import { allowedHosts, hostAllowed, originAllowed } from './origin-check.js';
import { setSecurityHeaders } from './security-headers.js';
import { bindSocket } from './socket-binding.js';
import { plain, serveStatic } from './static-files.js';
import { cookieName, readCookie, tokenCookie } from './token-cookie.js';
import { tokenMatches } from './token.js';

export interface WebServerOptions {
  host: Host;
  token: string;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 unless given. */
  bindHost?: string;
  /** True when the user named bindHost (--host); a non-loopback address needs it. */
  hostNamedExplicitly?: boolean;
  /** Ping interval of the sockets (tests shorten it). */
  heartbeatMs?: number;
}

export interface WebServer {
  /** The one URL to open: it carries the token. */
  readonly url: string;
  readonly port: number;
  /** Set when listening beyond this machine: print it. */
  readonly warning: string | null;
  /** Stops accepting, closes every socket and connection. */
  close(): Promise<void>;
}

const UNAUTHORIZED = 'Open the URL Gatehouse printed when it started: it carries the access token.';

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const bindHost = options.bindHost ?? DEFAULT_HOST;
  const warning = checkBind(bindHost, options.hostNamedExplicitly ?? false);
  let allowed = new Set<string>();
  let port = 0;
  const authorized = (req: IncomingMessage, queryToken: string | null) =>
    tokenMatches(options.token, queryToken ?? readCookie(req.headers.cookie, cookieName(port)));

  const wss = new WebSocketServer({ noServer: true, maxPayload: WIRE_MAX_FRAME_BYTES });
  wss.on('connection', (ws) => bindSocket(ws, options.host, options.heartbeatMs));

  const server = createServer((req, res) => {
    void handleRequest(req, res).catch(() => {
      if (!res.headersSent) plain(res, 500, 'Internal error.');
      else res.destroy();
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setSecurityHeaders(res);
    if (!hostAllowed(req.headers.host, allowed)) return plain(res, 403, 'Unknown Host header.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Only GET and HEAD are served.');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const queryToken = url.searchParams.get('token');
    if (!authorized(req, queryToken)) return plain(res, 401, UNAUTHORIZED);
    if (queryToken !== null) {
      // The token moves into a cookie the page cannot read, and out of the address bar.
      res.writeHead(303, { 'Set-Cookie': tokenCookie(port, options.token), Location: url.pathname });
      return void res.end();
    }
    await serveStatic(options.staticDir, req, res, url.pathname);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A reset during the handshake must not become an uncaught error that stops the host.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    if (url.pathname !== WIRE_PATH) return refuse('404 Not Found');
    if (!hostAllowed(req.headers.host, allowed)) return refuse('403 Forbidden');
    if (!originAllowed(req.headers.origin, req.headers.host, allowed)) return refuse('403 Forbidden');
    if (!authorized(req, url.searchParams.get('token'))) return refuse('401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  allowed = allowedHosts(port, bindHost);
  const shownHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;

  return {
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    port,
    warning,
    close: async () => {
      for (const ws of wss.clients) ws.close(1001, 'Gatehouse is shutting down');
      // Sockets and requests that do not finish promptly are cut.
      const cut = setTimeout(() => {
        for (const ws of wss.clients) ws.terminate();
        server.closeAllConnections();
      }, 1000);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(cut);
    },
  };
}
