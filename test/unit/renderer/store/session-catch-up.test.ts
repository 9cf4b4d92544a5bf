/**
 * Catching a loaded session up with `session.events {sinceSeq}`: one request per session
 * at a time, and a gap seen while one is on its way asks once more after it, from the seq
 * the first one reached.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CallResponses, Reply } from '../../../../shared/contract';
import { createAppStore } from '../../../../renderer/src/store/app-store';
import { SessionCatchUp } from '../../../../renderer/src/store/session-catch-up';
import { createFakeApi, eventsFrom, summaryOf } from '../fake-api';
import { memoryStorage } from '../render-frame';

const first = eventsFrom(1, [
  { type: 'user_message', messageId: 'm1', text: 'hello' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
]);

function loadedStore() {
  const store = createAppStore(memoryStorage());
  store.getState().sessionLoaded(summaryOf({ id: 'a' }), first);
  return store;
}

describe('catching a session up', () => {
  it('asks once at a time, and once more after it when a gap was seen meanwhile', async () => {
    const store = loadedStore();
    const fake = createFakeApi();
    const answers: ((reply: Reply<CallResponses['session.events']>) => void)[] = [];
    fake.respond('session.events', () => new Promise((resolve) => answers.push(resolve)));
    const catchUp = new SessionCatchUp({ store, api: fake.api, report: () => {} });

    const running = catchUp.run('a');
    void catchUp.run('a');
    void catchUp.run('a');
    expect(fake.requestsOf('session.events')).toEqual([{ id: 'a', sinceSeq: 2 }]);

    answers[0]!({ ok: true, data: { events: eventsFrom(3, [{ type: 'assistant_text', turnId: 't1', text: 'hi' }]) } });
    await running;
    await vi.waitFor(() => expect(fake.requestsOf('session.events')).toHaveLength(2));
    expect(fake.requestsOf('session.events')[1]).toEqual({ id: 'a', sinceSeq: 3 });
    answers[1]!({ ok: true, data: { events: [] } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Three asks while one was on its way made two requests, not three.
    expect(fake.requestsOf('session.events')).toHaveLength(2);
    expect(store.getState().sessions.a?.state?.lastSeq).toBe(3);
  });

  it('says why it could not, and asks nothing for a session that is not loaded', async () => {
    const store = loadedStore();
    const fake = createFakeApi();
    fake.fail('session.events', 'log unreadable');
    const report = vi.fn();
    const catchUp = new SessionCatchUp({ store, api: fake.api, report });
    await catchUp.run('a');
    expect(report).toHaveBeenCalledWith('Could not catch up with the session: log unreadable');
    await catchUp.run('nobody');
    expect(fake.requestsOf('session.events')).toHaveLength(1);
  });
});
