/**
 * The web host: the built renderer over HTTP and the contract over one WebSocket, for a
 * browser on this machine. Every request must name this host; the socket must come from
 * this origin and offer the token as a subprotocol. Only the binding differs from
 * Electron: calls go to the same Host.
 *
 * The token never rides in a cookie: cookies ignore ports, so the browser would hand it to
 * any other server on 127.0.0.1. The page keeps it in sessionStorage (its own origin, port
 * included) and gets it from the URL's fragment, which browsers never send. The files of
 * the window are public code and are served to anyone who names this host; only the socket
 * can read sessions or run anything, and it takes the token on every connect.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Host } from '../core/host.js';
import {
  WIRE_AUTH_PATH,
  WIRE_MAX_FRAME_BYTES,
  WIRE_PATH,
  WIRE_PROTOCOL,
  WIRE_TOKEN_PROTOCOL,
} from '../../shared/wire.js';
import { checkBind, DEFAULT_HOST } from './bind-address.js';
import { allowedHosts, hostAllowed, originAllowed } from './origin-check.js';
import { setSecurityHeaders } from './security-headers.js';
import { bindSocket } from './socket-binding.js';
import { OneTimeCodes } from './one-time-code.js';
import { plain, serveStatic } from './static-files.js';
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
  /** The clock one-time codes expire by (tests move it). */
  now?: () => number;
}

export interface WebServer {
  /** The URL to print: the token rides in its fragment, which no browser sends to a server. */
  readonly url: string;
  /** `url`, also telling the page which session to show first (`--open FOLDER`). */
  tokenUrl(session?: string | null): string;
  /**
   * A URL that carries a code good for one visit within 60 s, never the token; the session
   * rides with the code. For a launch page only the user can read, never a command line:
   * whoever visits it first gets the token. `onRedeemed` runs when it is spent.
   */
  oneTimeUrl(session?: string | null, onRedeemed?: () => void): string;
  readonly port: number;
  /** Set when listening beyond this machine: print it. */
  readonly warning: string | null;
  /** Stops accepting, closes every socket and connection. */
  close(): Promise<void>;
}

const UNAUTHORIZED = 'Open the URL Gatehouse printed when it started: it carries the access token.';
const CODE_SPENT =
  'This link works once, within a minute of Gatehouse opening it, and it has been used or has expired. ' + UNAUTHORIZED;

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const bindHost = options.bindHost ?? DEFAULT_HOST;
  const warning = checkBind(bindHost, options.hostNamedExplicitly ?? false);
  let allowed = new Set<string>();
  const codes = new OneTimeCodes(options.now);

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WIRE_MAX_FRAME_BYTES,
    // Only the protocol's name is echoed; the token the page offered beside it is not.
    handleProtocols: (offered) => (offered.has(WIRE_PROTOCOL) ? WIRE_PROTOCOL : false),
  });
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
    if (url.pathname === WIRE_AUTH_PATH) {
      // Lets a page whose socket keeps failing tell a refused token from a host that is down.
      const ok = tokenMatches(options.token, bearer(req.headers.authorization));
      return ok ? void res.writeHead(204).end() : plain(res, 401, UNAUTHORIZED);
    }
    const code = url.searchParams.get('code');
    // HEAD (a link checker, a preview) must not spend the code the browser is about to use.
    if (code !== null && req.method === 'GET') {
      const redeemed = codes.redeem(code);
      if (!redeemed) return plain(res, 401, CODE_SPENT);
      // The browser keeps the fragment of a redirect's Location: the page reads the token there.
      res.writeHead(303, { Location: `/${fragment(options.token, redeemed.session)}` });
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
    if (!tokenMatches(options.token, offeredToken(req.headers['sec-websocket-protocol']))) {
      return refuse('401 Unauthorized');
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  allowed = allowedHosts(port, bindHost);
  const shownHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const origin = `http://${shownHost}:${port}`;

  return {
    url: `${origin}/${fragment(options.token, null)}`,
    tokenUrl: (session) => `${origin}/${fragment(options.token, session ?? null)}`,
    oneTimeUrl: (session, onRedeemed) => `${origin}/?code=${codes.mint(session ?? null, onRedeemed)}`,
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

/**
 * `#token=…[&session=…]`: what the page reads at load and then takes out of the address
 * bar; `session` is the tab it shows first.
 */
function fragment(token: string, session: string | null): string {
  const params = new URLSearchParams({ token });
  if (session) params.set('session', session);
  return `#${params.toString()}`;
}

function bearer(header: string | undefined): string | null {
  const match = header ? /^Bearer ([^\s]+)$/.exec(header) : null;
  return match ? match[1]! : null;
}

/**
 * The token the page offered as `gatehouse.token.<token>` beside `gatehouse.v1`; null when
 * either is missing (the host could not select its protocol, and the browser would fail).
 */
export function offeredToken(header: string | undefined): string | null {
  const offered = (header ?? '').split(',').map((p) => p.trim());
  if (!offered.includes(WIRE_PROTOCOL)) return null;
  const token = offered.find((p) => p.startsWith(WIRE_TOKEN_PROTOCOL));
  return token ? token.slice(WIRE_TOKEN_PROTOCOL.length) : null;
}
