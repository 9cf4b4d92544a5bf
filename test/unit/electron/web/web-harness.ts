/**
 * A core (through the core harness, with the fake model) behind a real web server on a
 * free loopback port, serving a small static folder; plus raw HTTP and WebSocket helpers
 * that set exactly the headers a test names, and the browser's client over `ws`.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../../../../electron/web/server.js';
import { newToken } from '../../../../electron/web/token.js';
import type { GatehouseApi } from '../../../../shared/contract.js';
import { WIRE_PATH, WIRE_PROTOCOL, WIRE_TOKEN_PROTOCOL } from '../../../../shared/wire.js';
import { startHarness, type Harness } from '../core/core-harness.js';

export type ConnectionState = 'connected' | 'reconnecting' | 'offline';
/** The browser client's api object, as this (DOM-less) program sees it. */
export type ClientApi = GatehouseApi & { onConnection(listener: (state: ConnectionState) => void): () => void };
interface ClientOptions {
  token: string;
  url: string;
  WebSocket: unknown;
  backoff?: { initialMs: number; maxMs: number };
  callWaitMs?: number;
}

/**
 * The browser's own client module (renderer/src/api/ws-client.ts). It is typed against the
 * DOM, which this Node program does not load, so it is imported by a path tsc leaves alone
 * (the renderer's tsconfig checks it); here it runs over the `ws` package's WebSocket.
 */
const CLIENT_MODULE: string = '../../../../renderer/src/api/ws-client.ts';
const { connectWebHost } = (await import(CLIENT_MODULE)) as { connectWebHost(options: ClientOptions): ClientApi };

export interface WebHarness {
  h: Harness;
  server: WebServer;
  token: string;
  port: number;
  origin: string;
  /** The subprotocols a page holding the token offers. */
  protocols: string[];
  staticDir: string;
  get(urlPath: string, headers?: Record<string, string>): Promise<HttpReply>;
  /**
   * Opens a raw socket (by default as the page would: its Origin and the token's
   * subprotocols); resolves when it opens, rejects with the HTTP status when refused.
   */
  socket(headers?: Record<string, string>, protocols?: string[]): Promise<WebSocket>;
  /** The browser's api client, with the Origin a same-origin page sends and the token. */
  client(options?: Omit<ClientOptions, 'url' | 'WebSocket' | 'token'>, gate?: ConnectGate): ClientApi;
  close(): Promise<void>;
}

export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Lets a test hold back reconnects (each attempt fails while `blocked`) and drop the live socket. */
export class ConnectGate {
  blocked = false;
  /** While set, the client hears nothing: replies are lost on the way, as on a failing network. */
  deaf = false;
  readonly sockets: WebSocket[] = [];
  dropLive(): void {
    this.sockets.at(-1)?.terminate();
  }
}

export async function startWebHarness(options: { now?: () => number } = {}): Promise<WebHarness> {
  const h = await startHarness();
  const staticDir = path.join(h.root, 'static');
  await fs.mkdir(path.join(staticDir, 'assets'), { recursive: true });
  await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Gatehouse</title>');
  await fs.writeFile(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  await fs.writeFile(path.join(staticDir, 'assets', 'app.css'), 'body{}');
  await fs.writeFile(path.join(h.root, 'secret.txt'), 'top secret');
  const token = newToken();
  const server = await startWebServer({ host: h.core.host, token, staticDir, port: 0, now: options.now });
  const port = server.port;
  const origin = `http://127.0.0.1:${port}`;
  const sameOrigin = { Origin: origin };
  const protocols = tokenProtocols(token);
  return {
    h,
    server,
    token,
    port,
    origin,
    protocols,
    staticDir,
    get: (urlPath, headers = {}) => httpGet(port, urlPath, headers),
    socket: (headers = sameOrigin, offered = protocols) =>
      openSocket(`ws://127.0.0.1:${port}${WIRE_PATH}`, headers, offered),
    client(options = {}, gate = new ConnectGate()) {
      const url = `ws://127.0.0.1:${port}${WIRE_PATH}`;
      class SameOriginSocket extends WebSocket {
        constructor(_url: string, offered: string[]) {
          // A blocked attempt goes to a path the host refuses, so it fails like a dead network.
          super(gate.blocked ? `ws://127.0.0.1:${port}/blocked` : url, offered, { headers: sameOrigin });
          this.on('error', () => {});
          gate.sockets.push(this);
        }
        override emit(event: string | symbol, ...args: unknown[]): boolean {
          if (event === 'message' && gate.deaf) return false;
          return super.emit(event, ...args);
        }
      }
      return connectWebHost({ ...options, token, url, WebSocket: SameOriginSocket });
    },
    async close() {
      await server.close();
      await h.close();
    },
  };
}

function httpGet(port: number, urlPath: string, headers: Record<string, string>): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: urlPath, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** What a page holding this token offers as subprotocols. */
export function tokenProtocols(token: string): string[] {
  return [WIRE_PROTOCOL, `${WIRE_TOKEN_PROTOCOL}${token}`];
}

export function openSocket(url: string, headers: Record<string, string>, protocols: string[]): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      reject(new Error(`refused: ${res.statusCode}`));
    });
    ws.once('error', reject);
  });
}

/** The next JSON frame the socket receives. */
export function nextFrame(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
}

/** Sends a frame and waits for the first reply or error frame (pushes are skipped). */
export function exchange(ws: WebSocket, frame: string | Buffer): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const parsed = JSON.parse(String(data)) as Record<string, unknown>;
      if (parsed.t === 'push') return;
      ws.off('message', onMessage);
      resolve(parsed);
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}
