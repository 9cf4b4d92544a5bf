import { describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../../../shared/events';
import * as reducer from '../../../../shared/reducer';
import { createAppStore } from '../../../../renderer/src/store/app-store';
import { connectStore } from '../../../../renderer/src/store/sync';
import { createFakeApi, eventsFrom, summaryOf } from '../fake-api';
import { cardOf, writeBody } from '../components/cards/card-fixtures';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

const firstEvents = eventsFrom(1, [
  { type: 'user_message', messageId: 'm1', text: 'hello' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
]);

/** A store with session "a" open in a tab and loaded with two events; frames run by hand. */
async function loadedSession() {
  const fake = createFakeApi();
  fake.reply('sessions.list', [summaryOf({ id: 'a' })]);
  fake.reply('session.state', { summary: summaryOf({ id: 'a' }), events: firstEvents });
  const store = createAppStore(memoryStorage());
  const frames: (() => void)[] = [];
  const sync = connectStore(store, fake.api, (cb) => frames.push(cb));
  await sync.start();
  store.getState().openTab('a');
  await vi.waitFor(() => expect(store.getState().sessions.a?.state?.lastSeq).toBe(2));
  const runFrames = () => frames.splice(0).forEach((cb) => cb());
  return { fake, store, sync, runFrames };
}

/** An event push; `event` may come from indexing an array, so a missing one fails loudly. */
function eventPush(event: SessionEvent | undefined) {
  if (!event) throw new Error('eventPush: no event');
  return { name: 'session.event' as const, payload: { id: 'a', event } };
}

describe('the store kept in step with the app', () => {
  it('loads an opened tab with session.state and folds it with the shared reducer', async () => {
    const { store, fake } = await loadedSession();
    expect(fake.requestsOf('session.state')).toEqual([{ id: 'a' }]);
    expect(store.getState().sessions.a?.state).toEqual(reducer.foldEvents(firstEvents));
    expect(store.getState().sessions.a?.state?.status).toBe('running');
  });

  it('streamed deltas change the live view only, never the sessions the sidebar reads', async () => {
    const { store, fake, runFrames } = await loadedSession();
    const before = store.getState().sessions;
    fake.push({ name: 'session.delta', payload: { id: 'a', turnId: 't1', text: 'word ' } });
    fake.push({ name: 'session.output', payload: { id: 'a', toolCallId: 'c1', stream: 'stdout', chunk: 'line\n' } });
    runFrames();
    expect(store.getState().sessions).toBe(before);
    expect(store.getState().live.a?.streaming?.text).toBe('word ');
  });

  it('folds a frame of pushes once, through the shared foldEvents, not per push', async () => {
    const { store, fake, runFrames } = await loadedSession();
    const fold = vi.spyOn(reducer, 'foldEvents');
    const renders = vi.fn();
    store.subscribe(renders);
    for (const event of eventsFrom(3, [
      { type: 'assistant_text', turnId: 't1', text: 'one' },
      { type: 'assistant_text', turnId: 't1', text: 'two' },
      { type: 'assistant_text', turnId: 't1', text: 'three' },
    ]))
      fake.push(eventPush(event));
    expect(store.getState().sessions.a?.state?.lastSeq).toBe(2);
    runFrames();
    expect(fold).toHaveBeenCalledTimes(1);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(store.getState().sessions.a?.state?.transcript.map((i) => i.kind)).toEqual([
      'user',
      'assistant',
      'assistant',
      'assistant',
    ]);
    fold.mockRestore();
  });

  it('marks a card event for the card-paint measure as it arrives, before the frame folds it', async () => {
    const { fake, runFrames } = await loadedSession();
    performance.clearMarks();
    const card = cardOf(writeBody(), { seq: 3, cardId: 'card-paint-1' });
    const [text] = eventsFrom(4, [{ type: 'assistant_text', turnId: 't1', text: 'no card here' }]);
    fake.push(eventPush(card));
    fake.push(eventPush(text));
    expect(performance.getEntriesByName('gatehouse:card-event:card-paint-1', 'mark')).toHaveLength(1);
    expect(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('gatehouse:card-event:'))).toHaveLength(
      1,
    );
    runFrames();
  });

  it('ignores an event it already folded, so nothing shows twice', async () => {
    const { store, fake, runFrames } = await loadedSession();
    const [text] = eventsFrom(3, [{ type: 'assistant_text', turnId: 't1', text: 'once' }]);
    fake.push(eventPush(text));
    runFrames();
    fake.push(eventPush(text));
    fake.push(eventPush(firstEvents[0]));
    runFrames();
    expect(store.getState().sessions.a?.state?.transcript.filter((i) => i.kind === 'assistant')).toHaveLength(1);
    expect(store.getState().sessions.a?.state?.transcript.filter((i) => i.kind === 'user')).toHaveLength(1);
  });

  it('fills a gap in the seqs with session.events from the last seq it has', async () => {
    const { store, fake, runFrames } = await loadedSession();
    const missing = eventsFrom(3, [
      { type: 'assistant_text', turnId: 't1', text: 'lost' },
      { type: 'turn_ended', turnId: 't1', reason: 'finished' },
    ]);
    fake.reply('session.events', { events: missing });
    fake.push(eventPush(missing[1]));
    runFrames();
    await vi.waitFor(() => expect(store.getState().sessions.a?.state?.lastSeq).toBe(4));
    expect(fake.requestsOf('session.events')).toEqual([{ id: 'a', sinceSeq: 2 }]);
    expect(store.getState().sessions.a?.state?.status).toBe('idle');
  });

  it('streams deltas of the live step, resets on reset, and clears them when the whole text arrives', async () => {
    const { store, fake, runFrames } = await loadedSession();
    fake.push({ name: 'session.delta', payload: { id: 'a', turnId: 't1', text: 'Hel' } });
    fake.push({ name: 'session.delta', payload: { id: 'a', turnId: 't1', text: 'lo' } });
    runFrames();
    expect(store.getState().live.a?.streaming).toEqual({ turnId: 't1', text: 'Hello' });
    fake.push({ name: 'session.delta', payload: { id: 'a', turnId: 't1', text: 'Again', reset: true } });
    runFrames();
    expect(store.getState().live.a?.streaming?.text).toBe('Again');
    fake.push(eventPush(eventsFrom(3, [{ type: 'assistant_text', turnId: 't1', text: 'Again' }])[0]));
    runFrames();
    expect(store.getState().live.a?.streaming).toBeNull();
  });

  it('keeps live command output per tool call until its result', async () => {
    const { store, fake, runFrames } = await loadedSession();
    fake.push({ name: 'session.output', payload: { id: 'a', toolCallId: 'c1', stream: 'stdout', chunk: 'ok\n' } });
    fake.push({ name: 'session.output', payload: { id: 'a', toolCallId: 'c1', stream: 'stderr', chunk: 'warn\n' } });
    runFrames();
    expect(store.getState().live.a?.liveOutput.c1?.text).toBe('ok\nwarn\n');
    const events = eventsFrom(3, [
      { type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'run', args: {} },
      { type: 'tool_result', turnId: 't1', toolCallId: 'c1', tool: 'run', ok: true, output: 'ok' },
    ]);
    events.forEach((e) => fake.push(eventPush(e)));
    runFrames();
    expect(store.getState().live.a?.liveOutput).toEqual({});
  });

  it('after a dropped connection comes back, lists sessions again and catches up every loaded one', async () => {
    const { store, fake } = await loadedSession();
    fake.setConnection('reconnecting');
    expect(store.getState().connection).toBe('reconnecting');
    const later = eventsFrom(3, [{ type: 'turn_ended', turnId: 't1', reason: 'finished' }]);
    fake.reply('session.events', { events: later });
    fake.setConnection('connected');
    await vi.waitFor(() => expect(store.getState().sessions.a?.state?.lastSeq).toBe(3));
    expect(fake.requestsOf('sessions.list')).toHaveLength(2);
    expect(fake.requestsOf('session.events')).toEqual([{ id: 'a', sinceSeq: 2 }]);
    expect(store.getState().connection).toBe('connected');
  });

  it('updates a summary from sessions.changed', async () => {
    const { store, fake, runFrames } = await loadedSession();
    fake.push({ name: 'sessions.changed', payload: { summary: summaryOf({ id: 'b', waiting: 1 }) } });
    runFrames();
    expect(store.getState().sessions.b?.summary.waiting).toBe(1);
  });

  it('does not retry a failing load on every change, and says why it failed', async () => {
    const fake = createFakeApi();
    fake.reply('sessions.list', [summaryOf({ id: 'a' })]);
    fake.fail('session.state', 'damaged log');
    const store = createAppStore(memoryStorage());
    const sync = connectStore(store, fake.api, () => {});
    await sync.start();
    store.getState().openTab('a');
    await vi.waitFor(() => expect(store.getState().notice?.text).toMatch(/damaged log/));
    store.getState().dismissNotice();
    store.getState().showNotice({ kind: 'info', text: 'x' });
    expect(fake.requestsOf('session.state')).toHaveLength(1);
  });

  it('holds the pushes that arrive while a session loads, and folds the new ones after its log', async () => {
    const fake = createFakeApi();
    fake.reply('sessions.list', [summaryOf({ id: 'a' })]);
    let answerState: (() => void) | undefined;
    fake.respond(
      'session.state',
      () =>
        new Promise((resolve) => {
          answerState = () => resolve({ ok: true, data: { summary: summaryOf({ id: 'a' }), events: firstEvents } });
        }),
    );
    const store = createAppStore(memoryStorage());
    const frames: (() => void)[] = [];
    const sync = connectStore(store, fake.api, (cb) => frames.push(cb));
    await sync.start();
    store.getState().openTab('a');
    await vi.waitFor(() => expect(answerState).toBeDefined());
    const [late] = eventsFrom(3, [{ type: 'turn_ended', turnId: 't1', reason: 'finished' }]);
    fake.push(eventPush(firstEvents[1]));
    fake.push(eventPush(late));
    answerState!();
    await vi.waitFor(() => expect(store.getState().sessions.a?.state?.lastSeq).toBe(3));
    expect(store.getState().sessions.a?.state?.transcript.filter((i) => i.kind === 'turn_end')).toHaveLength(1);
    expect(fake.requestsOf('session.events')).toEqual([]);
  });

  it('forgets tabs of sessions the app no longer lists', async () => {
    const storage = memoryStorage();
    const first = createAppStore(storage);
    first.getState().openTab('gone');
    first.getState().openTab('a');
    const fake = createFakeApi();
    fake.reply('sessions.list', [summaryOf({ id: 'a' })]);
    const store = createAppStore(storage);
    await connectStore(store, fake.api, () => {}).start();
    expect(store.getState().openIds).toEqual(['a']);
    expect(store.getState().activeId).toBe('a');
  });

  it('keeps the session.compacting flag per session, the last push of a frame winning', async () => {
    const { store, fake, runFrames } = await loadedSession();
    const compacting = (id: string, on: boolean) =>
      fake.push({ name: 'session.compacting', payload: { id, compacting: on } });
    compacting('a', true);
    expect(store.getState().compacting).toEqual({});
    runFrames();
    expect(store.getState().compacting).toEqual({ a: true });
    compacting('a', false);
    compacting('b', true);
    runFrames();
    expect(store.getState().compacting).toEqual({ b: true });
    compacting('b', false);
    compacting('b', true);
    compacting('b', false);
    runFrames();
    expect(store.getState().compacting).toEqual({});
  });

  it('forgets the compacting flags when the connection drops, since the push ending one may be lost', async () => {
    const { store, fake, runFrames } = await loadedSession();
    fake.push({ name: 'session.compacting', payload: { id: 'a', compacting: true } });
    runFrames();
    fake.setConnection('reconnecting');
    expect(store.getState().compacting).toEqual({});
  });

  it('does not hold a compacting push while its session loads: the log cannot replay it', async () => {
    const fake = createFakeApi();
    fake.reply('sessions.list', [summaryOf({ id: 'a' })]);
    fake.respond('session.state', () => new Promise(() => {}));
    const store = createAppStore(memoryStorage());
    const frames: (() => void)[] = [];
    const sync = connectStore(store, fake.api, (cb) => frames.push(cb));
    await sync.start();
    store.getState().openTab('a');
    await vi.waitFor(() => expect(fake.requestsOf('session.state')).toHaveLength(1));
    fake.push({ name: 'session.compacting', payload: { id: 'a', compacting: true } });
    frames.splice(0).forEach((cb) => cb());
    expect(store.getState().compacting).toEqual({ a: true });
  });

  it('learns from the session list that a summary is being written, for a window that connects mid-summary', async () => {
    const fake = createFakeApi();
    fake.reply('sessions.list', [summaryOf({ id: 'a', compacting: true }), summaryOf({ id: 'b' })]);
    const store = createAppStore(memoryStorage());
    await connectStore(store, fake.api, () => {}).start();
    expect(store.getState().compacting).toEqual({ a: true });
  });
});
