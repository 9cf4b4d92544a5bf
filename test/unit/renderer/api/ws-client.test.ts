/**
 * The browser's api client against a fake WebSocket: the token offered on every connect,
 * replies matched by id, pushes fanned out, connection changes reported, reconnects with
 * capped backoff, calls that can no longer be answered resolved with a clear error, never
 * sent twice, and a refused token ending the attempts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALL_NAMES, MESSAGE_MAX_CHARS } from '../../../../shared/contract';
import { WIRE_MAX_FRAME_BYTES, WIRE_PROTOCOL, WIRE_TOKEN_PROTOCOL } from '../../../../shared/wire';
import type { TokenCheck } from '../../../../renderer/src/api/page-access';
import { connectWebHost, CONNECTION_LOST, TOKEN_REFUSED } from '../../../../renderer/src/api/ws-client';
import type { ConnectionState } from '../../../../renderer/src/api/types';
import { reconnectDelay } from '../../../../renderer/src/api/reconnect-backoff';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  readonly sent: Record<string, unknown>[] = [];
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.onclose?.();
  }
  // Test controls: what the server (or the network) does.
  open() {
    this.onopen?.();
  }
  reply(id: unknown, reply: unknown) {
    this.onmessage?.({ data: JSON.stringify({ t: 'reply', id, reply }) });
  }
  push(push: unknown) {
    this.onmessage?.({ data: JSON.stringify({ t: 'push', push }) });
  }
  drop() {
    this.onclose?.();
  }
}

const latest = () => FakeSocket.all.at(-1)!;
const BACKOFF = { initialMs: 100, maxMs: 1000 };

const TOKEN = 'T'.repeat(43);

function connect(
  callWaitMs = 10_000,
  more: { checkToken?: () => Promise<TokenCheck>; onTokenRefused?: () => void } = {},
) {
  const api = connectWebHost({
    ...more,
    token: TOKEN,
    url: 'ws://127.0.0.1:1/ws',
    WebSocket: FakeSocket as unknown as typeof WebSocket,
    backoff: BACKOFF,
    callWaitMs,
  });
  const states: ConnectionState[] = [];
  api.onConnection!((s) => states.push(s));
  return { api, states };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('calls and replies', () => {
  it('has every call of the contract, and matches replies to calls by id in any order', async () => {
    const { api } = connect();
    for (const name of CALL_NAMES) expect(typeof api[name]).toBe('function');
    latest().open();
    const list = api['sessions.list']({});
    const state = api['session.state']({ id: 's1' });
    const [a, b] = latest().sent;
    expect(a).toEqual({ t: 'call', id: expect.any(Number), name: 'sessions.list', payload: {} });
    expect(b).toMatchObject({ t: 'call', name: 'session.state', payload: { id: 's1' } });
    latest().reply(b!.id, { ok: false, error: 'no such session' });
    latest().reply(a!.id, { ok: true, data: [] });
    expect(await list).toEqual({ ok: true, data: [] });
    expect(await state).toEqual({ ok: false, error: 'no such session' });
  });

  it('fans pushes out to every subscriber until it unsubscribes', () => {
    const { api } = connect();
    latest().open();
    const one: unknown[] = [];
    const two: unknown[] = [];
    const offOne = api.subscribe((p) => one.push(p));
    api.subscribe((p) => two.push(p));
    const push = { name: 'session.delta', payload: { id: 's', turnId: 't', text: 'hi' } };
    latest().push(push);
    offOne();
    latest().push(push);
    expect(one).toEqual([push]);
    expect(two).toEqual([push, push]);
  });
});

describe('frame size', () => {
  it('refuses a call too large for the host without sending it, and the socket stays up', async () => {
    const { api, states } = connect();
    latest().open();
    const reply = await api['session.send']({ id: 's', text: '\u0001'.repeat(WIRE_MAX_FRAME_BYTES / 5) });
    expect(reply).toEqual({
      ok: false,
      error: `session.send is too large to send (over ${WIRE_MAX_FRAME_BYTES} bytes)`,
    });
    expect(latest().sent).toEqual([]);
    expect(states).toEqual(['connected']);
  });

  it('sends the largest message the contract takes, even one JSON escapes six-fold', async () => {
    const { api } = connect();
    latest().open();
    void api['session.send']({ id: 's', text: '\u0001'.repeat(MESSAGE_MAX_CHARS) });
    expect(latest().sent).toHaveLength(1);
  });
});

describe('a dropped socket', () => {
  it('resolves calls in flight with "connection lost" and never sends them again', async () => {
    const { api, states } = connect();
    latest().open();
    const send = api['session.send']({ id: 's', text: 'go' });
    const first = latest();
    first.drop();
    expect(await send).toEqual({ ok: false, error: CONNECTION_LOST });
    expect(states).toEqual(['connected', 'reconnecting']);
    await vi.advanceTimersByTimeAsync(BACKOFF.initialMs);
    latest().open();
    expect(latest()).not.toBe(first);
    expect(latest().sent).toEqual([]);
    expect(states).toEqual(['connected', 'reconnecting', 'connected']);
  });

  it('holds calls made while reconnecting and sends them once connected', async () => {
    const { api } = connect();
    latest().open();
    latest().drop();
    const list = api['sessions.list']({});
    await vi.advanceTimersByTimeAsync(BACKOFF.initialMs);
    expect(latest().sent).toEqual([]);
    latest().open();
    const frame = latest().sent[0]!;
    expect(frame).toMatchObject({ name: 'sessions.list' });
    latest().reply(frame.id, { ok: true, data: [] });
    expect(await list).toEqual({ ok: true, data: [] });
  });

  it('fails a held call with a clear error after the wait, and does not send it later', async () => {
    const { api } = connect(10_000);
    latest().open();
    latest().drop();
    const list = api['sessions.list']({});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await list).toEqual({
      ok: false,
      error: 'not connected to Gatehouse (waited 10 s); nothing was sent, try again',
    });
    latest().open();
    expect(latest().sent).toEqual([]);
  });

  it('backs off doubling up to the cap, and reads offline after five failed attempts', async () => {
    const { states } = connect();
    latest().open();
    latest().drop();
    const opened: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const before = FakeSocket.all.length;
      const delay = reconnectDelay(attempt, BACKOFF, () => 0);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeSocket.all.length).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all.length).toBe(before + 1);
      opened.push(delay);
      latest().drop();
    }
    expect(opened).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
    expect(states).toEqual(['connected', 'reconnecting', 'offline']);
    await vi.advanceTimersByTimeAsync(1000);
    latest().open();
    expect(states.at(-1)).toBe('connected');
  });
});

describe('the token', () => {
  it('is offered as a subprotocol on every connect, reconnects included, and never in the URL', async () => {
    connect();
    latest().open();
    latest().drop();
    await vi.advanceTimersByTimeAsync(BACKOFF.initialMs);
    expect(FakeSocket.all).toHaveLength(2);
    for (const socket of FakeSocket.all) {
      expect(socket.protocols).toEqual([WIRE_PROTOCOL, `${WIRE_TOKEN_PROTOCOL}${TOKEN}`]);
      expect(socket.url).toBe('ws://127.0.0.1:1/ws');
    }
  });

  it('after a failed handshake the host is asked; a refused token stops the attempts and says so', async () => {
    const checkToken = vi.fn(async (): Promise<TokenCheck> => 'refused');
    const onTokenRefused = vi.fn();
    const { api } = connect(10_000, { checkToken, onTokenRefused });
    const list = api['sessions.list']({});
    latest().drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(checkToken).toHaveBeenCalledTimes(1);
    expect(onTokenRefused).toHaveBeenCalledTimes(1);
    expect(await list).toEqual({ ok: false, error: TOKEN_REFUSED });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('a host that is down (or takes the token) is tried again; a drop after an open asks nothing', async () => {
    const checks: TokenCheck[] = ['unknown', 'accepted'];
    const checkToken = vi.fn(async () => checks.shift() ?? 'unknown');
    const onTokenRefused = vi.fn();
    connect(10_000, { checkToken, onTokenRefused });
    latest().drop();
    await vi.advanceTimersByTimeAsync(BACKOFF.initialMs);
    latest().drop();
    await vi.advanceTimersByTimeAsync(2 * BACKOFF.initialMs);
    expect(checkToken).toHaveBeenCalledTimes(2);
    latest().open();
    latest().drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(checkToken).toHaveBeenCalledTimes(2);
    expect(onTokenRefused).not.toHaveBeenCalled();
    expect(FakeSocket.all).toHaveLength(3);
  });
});

describe('reconnectDelay', () => {
  it('adds at most a fifth at random', () => {
    expect(reconnectDelay(0, BACKOFF, () => 0.999)).toBe(120);
    expect(reconnectDelay(10, BACKOFF, () => 0.5)).toBe(1100);
  });
});
