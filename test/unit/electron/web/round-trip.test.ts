/**
 * The browser's client against the real server: calls and replies, pushes as the turn
 * runs, and a dropped socket that reconnects and catches up with session.events so no
 * event is lost or seen twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Push } from '../../../../shared/contract.js';
import type { SessionEvent } from '../../../../shared/events.js';
import { createHold } from '../../../fake-model/server.js';
import { ConnectGate, startWebHarness, type ConnectionState, type WebHarness } from './web-harness.js';

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

function sessionEvents(pushes: Push[], id: string): SessionEvent[] {
  return pushes.flatMap((p) => (p.name === 'session.event' && p.payload.id === id ? [p.payload.event] : []));
}

describe('a round trip over the socket', () => {
  it('opens a session, reads its state, and hears the turn as pushes', async () => {
    w = await startWebHarness();
    const api = w.client();
    const pushes: Push[] = [];
    api.subscribe((p) => pushes.push(p));
    const opened = await api['sessions.open']({ workspace: w.h.workspace });
    expect(opened).toMatchObject({ ok: true, data: { workspace: w.h.workspace, status: 'idle' } });
    const id = opened.ok ? opened.data.id : '';
    expect(await api['session.state']({ id })).toMatchObject({ ok: true, data: { summary: { id }, events: [] } });
    w.h.fake.enqueue({ text: 'hello from the model' });
    expect(await api['session.send']({ id, text: 'hi' })).toMatchObject({ ok: true, data: { status: 'started' } });
    await until(() => sessionEvents(pushes, id).some((e) => e.type === 'turn_ended'), 'turn_ended pushed');
    expect(sessionEvents(pushes, id)).toEqual(await w.h.events(id));
    expect(pushes.some((p) => p.name === 'session.delta')).toBe(true);
    expect(await api['session.send']({ id, text: '   ' })).toEqual({
      ok: false,
      error: 'bad request for session.send: text: message is empty',
    });
  });

  it('reconnects after a drop and catches up with exactly the events it missed', async () => {
    w = await startWebHarness();
    const gate = new ConnectGate();
    const api = w.client({ backoff: { initialMs: 20, maxMs: 50 } }, gate);
    const states: ConnectionState[] = [];
    api.onConnection((s) => states.push(s));
    const pushes: Push[] = [];
    api.subscribe((p) => pushes.push(p));
    const opened = await api['sessions.open']({ workspace: w.h.workspace });
    const id = opened.ok ? opened.data.id : '';
    const hold = createHold();
    w.h.fake.enqueue({ text: 'working on it', hold });
    await api['session.send']({ id, text: 'go' });
    await hold.reached;
    await until(() => sessionEvents(pushes, id).some((e) => e.type === 'turn_started'), 'turn_started pushed');

    gate.blocked = true;
    gate.dropLive();
    await until(() => states.includes('reconnecting'), 'reconnecting');
    hold.release();
    await w.h.event(id, 'turn_ended');
    const seen = sessionEvents(pushes, id);
    gate.blocked = false;
    await until(() => states.at(-1) === 'connected', 'connected again');

    const lastSeq = seen.at(-1)!.seq;
    const caughtUp = await api['session.events']({ id, sinceSeq: lastSeq });
    const missed = caughtUp.ok ? caughtUp.data.events : [];
    expect(missed.length).toBeGreaterThan(0);
    expect(missed[0]!.seq).toBe(lastSeq + 1);
    expect([...seen, ...missed]).toEqual(await w.h.events(id));
    // Nothing that happened during the gap was pushed twice on the new socket.
    expect(sessionEvents(pushes, id)).toEqual(seen);
  });

  it('a call whose socket drops before the reply says the outcome is unknown and is not sent again', async () => {
    w = await startWebHarness();
    const gate = new ConnectGate();
    const api = w.client({ backoff: { initialMs: 20, maxMs: 50 } }, gate);
    const states: ConnectionState[] = [];
    api.onConnection((s) => states.push(s));
    const opened = await api['sessions.open']({ workspace: w.h.workspace });
    const id = opened.ok ? opened.data.id : '';
    const hold = createHold();
    w.h.fake.enqueue({ text: 'busy', hold }, { text: 'second done' });
    await api['session.send']({ id, text: 'first' });
    await hold.reached;
    gate.deaf = true;
    const send = api['session.send']({ id, text: 'second' });
    await w.h.event(id, 'queued');
    gate.dropLive();
    expect(await send).toEqual({ ok: false, error: 'connection to Gatehouse lost; check whether it took effect' });
    gate.deaf = false;
    await until(() => states.at(-1) === 'connected', 'connected again');
    hold.release();
    await w.h.event(id, 'result', (r) => r.summary === 'second done');
    const queued = (await w.h.events(id)).filter((e) => e.type === 'queued');
    expect(queued).toHaveLength(1);
  });
});
