/**
 * The api object over the web host's one WebSocket, built from CALL_NAMES as the Electron
 * preload builds it over IPC. Replies are matched by id; pushes go to every subscriber;
 * connection changes go to `onConnection` listeners, and the store catches up after a
 * drop. A call whose socket dropped before its reply is never sent again (session.send is
 * not idempotent): it resolves with an error saying the outcome is unknown.
 *
 * Every connect, the first and each reconnect, offers the access token as a subprotocol
 * (the one header a page may set on a WebSocket); the host refuses the handshake without it.
 */
import { CALL_NAMES, type CallName, type Push, type Reply } from '../../../shared/contract.js';
import {
  WIRE_MAX_FRAME_BYTES,
  WIRE_PATH,
  WIRE_PROTOCOL,
  WIRE_TOKEN_PROTOCOL,
  type ClientFrame,
  type ServerFrame,
} from '../../../shared/wire.js';
import type { TokenCheck } from './page-access.js';
import { DEFAULT_BACKOFF, reconnectDelay, type Backoff } from './reconnect-backoff.js';
import type { ConnectionState, RendererApi } from './types.js';

export const CONNECTION_LOST = 'connection to Gatehouse lost; check whether it took effect';
export const TOKEN_REFUSED = "Gatehouse refused this page's access token; open the URL it printed";

/** After this many failed attempts in a row the state reads 'offline'; attempts go on. */
const ATTEMPTS_BEFORE_OFFLINE = 5;

export interface WebHostClientOptions {
  /** The web host's access token (see page-access.ts). */
  token: string;
  /** Defaults to ws(s)://<this page's host>/ws. */
  url?: string;
  /** The WebSocket class (tests pass a fake). */
  WebSocket?: typeof WebSocket;
  backoff?: Backoff;
  /** How long a call made while disconnected waits for the socket before failing. */
  callWaitMs?: number;
  /** Asked after a connect fails: does the host (when up) take the token? */
  checkToken?: () => Promise<TokenCheck>;
  /** The host refused the token: the client stops trying, and the page says what to open. */
  onTokenRefused?: () => void;
}

interface Waiting {
  frame: ClientFrame;
  resolve: (reply: Reply<unknown>) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function connectWebHost(options: WebHostClientOptions): RendererApi {
  const Socket = options.WebSocket ?? WebSocket;
  const url = options.url ?? defaultUrl();
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const callWaitMs = options.callWaitMs ?? 10_000;
  const pending = new Map<number, (reply: Reply<unknown>) => void>();
  const waiting: Waiting[] = [];
  const pushListeners = new Set<(push: Push) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let socket: WebSocket | null = null;
  let open = false;
  let state: ConnectionState | null = null;
  let failedAttempts = 0;
  let nextId = 1;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let refused = false;
  let checking = false;
  const protocols = [WIRE_PROTOCOL, `${WIRE_TOKEN_PROTOCOL}${options.token}`];

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...connectionListeners]) listener(next);
  };

  const connect = () => {
    retryTimer = null;
    if (refused) return;
    const ws = new Socket(url, protocols);
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      open = true;
      failedAttempts = 0;
      setState('connected');
      for (const call of waiting.splice(0)) {
        clearTimeout(call.timer);
        send(call.frame, call.resolve);
      }
    };
    ws.onmessage = (message: MessageEvent) => receive(message.data);
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      open = false;
      // The outcome of these calls is unknown: say so rather than guess or resend.
      for (const resolve of pending.values()) resolve({ ok: false, error: CONNECTION_LOST });
      pending.clear();
      failedAttempts += 1;
      setState(failedAttempts > ATTEMPTS_BEFORE_OFFLINE ? 'offline' : 'reconnecting');
      retryTimer = setTimeout(connect, reconnectDelay(failedAttempts - 1, backoff));
      if (!opened) void askAboutToken();
    };
  };

  // A handshake that failed may mean the token is refused, which no retry will mend.
  const askAboutToken = async () => {
    if (!options.checkToken || checking || refused) return;
    checking = true;
    try {
      if ((await options.checkToken()) !== 'refused') return;
    } finally {
      checking = false;
    }
    // A retry that got through while the host was asked settles it the other way.
    if (open) return;
    refused = true;
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    for (const call of waiting.splice(0)) {
      clearTimeout(call.timer);
      call.resolve({ ok: false, error: TOKEN_REFUSED });
    }
    options.onTokenRefused?.();
  };

  const receive = (data: unknown) => {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(data)) as ServerFrame;
    } catch {
      return console.warn('gatehouse: the web host sent a frame that is not JSON');
    }
    if (frame.t === 'reply') {
      const resolve = pending.get(frame.id);
      pending.delete(frame.id);
      resolve?.(frame.reply);
    } else if (frame.t === 'push') {
      for (const listener of [...pushListeners]) listener(frame.push);
    } else if (frame.t === 'error') {
      console.warn(`gatehouse: the web host refused a frame: ${frame.error}`);
    }
  };

  const send = (frame: ClientFrame, resolve: (reply: Reply<unknown>) => void) => {
    if (!open || !socket) return resolve({ ok: false, error: CONNECTION_LOST });
    const text = JSON.stringify(frame);
    // The host closes a socket that sends more, which would cut every other call short too.
    if (text.length * 3 > WIRE_MAX_FRAME_BYTES && new TextEncoder().encode(text).length > WIRE_MAX_FRAME_BYTES) {
      return resolve({ ok: false, error: `${frame.name} is too large to send (over ${WIRE_MAX_FRAME_BYTES} bytes)` });
    }
    pending.set(frame.id, resolve);
    socket.send(text);
  };

  const call = (name: CallName, payload: unknown): Promise<Reply<unknown>> =>
    new Promise((resolve) => {
      const frame: ClientFrame = { t: 'call', id: nextId++, name, payload };
      if (open) return send(frame, resolve);
      const entry: Waiting = {
        frame,
        resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          resolve({
            ok: false,
            error: `not connected to Gatehouse (waited ${callWaitMs / 1000} s); nothing was sent, try again`,
          });
        }, callWaitMs),
      };
      waiting.push(entry);
    });

  // The page may come back online before the next scheduled attempt: try at once.
  globalThis.addEventListener?.('online', () => {
    if (retryTimer === null) return;
    clearTimeout(retryTimer);
    connect();
  });

  connect();

  const api = {
    subscribe(listener: (push: Push) => void) {
      pushListeners.add(listener);
      return () => void pushListeners.delete(listener);
    },
    onConnection(listener: (state: ConnectionState) => void) {
      connectionListeners.add(listener);
      return () => void connectionListeners.delete(listener);
    },
  } as Record<string, unknown>;
  for (const name of CALL_NAMES) api[name] = (payload: unknown) => call(name, payload);
  return api as unknown as RendererApi;
}

function defaultUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WIRE_PATH}`;
}
