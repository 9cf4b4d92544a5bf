/**
 * One browser socket bound to the Host: each call frame goes through `host.call` (which
 * checks the payload and answers {ok, error}), the reply goes back under the call's id,
 * and every push is forwarded. A frame the host cannot read gets an error and changes
 * nothing. A client too slow to read its pushes is dropped; it reconnects and catches up.
 */
import type { RawData, WebSocket } from 'ws';
import type { Host } from '../core/host.js';
import { clientFrameSchema, type ServerFrame } from '../../shared/wire.js';

/** Pushes queued for a client that does not read them; past this it is disconnected. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** How often the host pings; a socket that has not answered the previous ping is cut. */
export const HEARTBEAT_MS = 30_000;

export function bindSocket(ws: WebSocket, host: Host, heartbeatMs = HEARTBEAT_MS): void {
  const send = (frame: ServerFrame) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'client too slow; reconnect to catch up');
      return;
    }
    ws.send(JSON.stringify(frame));
  };
  const unsubscribe = host.subscribe((push) => send({ t: 'push', push }));
  // A peer that vanished without closing (a suspended laptop, a killed browser) would keep
  // its subscription and a growing send buffer forever.
  let answered = true;
  ws.on('pong', () => (answered = true));
  const heartbeat = setInterval(() => {
    if (!answered) return ws.terminate();
    answered = false;
    ws.ping();
  }, heartbeatMs);
  heartbeat.unref();
  ws.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
  ws.on('error', () => ws.terminate());
  ws.on('message', (data, isBinary) => {
    const frame = readFrame(data, isBinary);
    if ('error' in frame) {
      send(frame.id === undefined ? { t: 'error', error: frame.error } : replyError(frame.id, frame.error));
      return;
    }
    void host.call(frame.name, frame.payload).then((reply) => send({ t: 'reply', id: frame.id, reply }));
  });
}

function replyError(id: number, error: string): ServerFrame {
  return { t: 'reply', id, reply: { ok: false, error } };
}

type ReadFrame = { id: number; name: string; payload: unknown } | { id?: number; error: string };

function readFrame(data: RawData, isBinary: boolean): ReadFrame {
  if (isBinary) return { error: 'frames must be JSON text, not binary' };
  let raw: unknown;
  try {
    raw = JSON.parse(rawText(data));
  } catch {
    return { error: 'frame is not JSON; expected {"t":"call","id":N,"name":"...","payload":{...}}' };
  }
  const parsed = clientFrameSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const id = (raw as { id?: unknown } | null)?.id;
  const what = parsed.error.issues.map((i) => `${i.path.join('.') || '(frame)'}: ${i.message}`).join('; ');
  const error = `bad frame: ${what}`;
  return Number.isSafeInteger(id) && (id as number) >= 0 ? { id: id as number, error } : { error };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
