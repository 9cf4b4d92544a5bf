/**
 * Which model a turn talks to: the one chosen when it started, for every step, even when
 * Settings change while it waits on a card; the next turn takes the new one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const modelOf = (body: unknown) => (body as { model: string }).model;

describe('a turn and its model', () => {
  it('keeps the model it started with when Settings change mid-turn, and the next turn takes the new one', async () => {
    h = await startHarness();
    const started = (await h.call('settings.get', {})).model!;
    h.fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'a\n' } }] },
      { text: 'done' },
      { text: 'second turn' },
    );
    const id = await h.open();
    await h.call('session.send', { id, text: 'write a' });
    const card = await h.event(id, 'card');
    await h.call('settings.set', { model: { ...started, modelId: 'changed-mid-turn' } });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const first = await h.event(id, 'turn_ended');
    expect(h.fake.requests.map((r) => modelOf(r.body))).toEqual([started.modelId, started.modelId]);

    await h.call('session.send', { id, text: 'again' });
    await h.event(id, 'turn_ended', (e) => e.seq > first.seq);
    expect(modelOf(h.fake.requests.at(-1)!.body)).toBe('changed-mid-turn');
  });
});
