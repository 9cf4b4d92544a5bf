/**
 * A message sent at the moment a turn ends (its end is logged, the session has not yet
 * looked for a next message) is queued behind it and then started, never left waiting
 * in the queue with no turn to take it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a message sent as a turn ends', () => {
  it('starts once the turn is over', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'first' });
    // Resolves on the pushed turn_ended line, before the session has finished with the turn.
    const first = await h.event(id, 'turn_ended');
    await h.call('session.send', { id, text: 'second' });
    const second = await h.event(id, 'turn_ended', (e) => e.seq > first.seq);
    expect(second.reason).toBe('finished');
    const state = await h.call('session.state', { id });
    expect(state.summary.status).toBe('idle');
    expect(state.events.filter((e) => e.type === 'user_message').map((e) => e.text)).toEqual(['first', 'second']);
  });
});
