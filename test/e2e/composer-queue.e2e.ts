/**
 * The composer during a running turn: messages sent meanwhile wait in a visible queue, one
 * can be removed before it starts (the model never sees it), and Cancel hands queued
 * messages back to the composer once, not again after a reload.
 */
import { describe, expect, test } from 'vitest';
import { createHold } from '../fake-model/server.js';
import { eventsOfSessionWith } from './harness/session-logs.js';
import { useWorld } from './harness/e2e-world.js';
import { visible } from './harness/gatehouse-page.js';
import { waitUntil, within } from './harness/wait-until.js';

const world = useWorld('composer-queue');

describe('the composer during a running turn', () => {
  test('queued messages show, one removed never reaches the model, the other starts the next turn', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('queue-ws');
    const hold = createHold();
    fake.enqueue({ text: 'Working on the first request.', hold }, { text: 'Second request done.' });
    await ui.openWorkspace(ws);
    await ui.send('First request');
    await within(hold.reached, 'the fake model streaming the held reply');

    await ui.send('drop this queued one');
    await ui.send('keep this queued one');
    const queue = await visible(ui.page.getByRole('list', { name: 'Queued messages' }), 'the list "Queued messages"');
    await visible(queue.getByRole('listitem').filter({ hasText: 'keep this queued one' }), 'the second queued message');
    await world.shot('queued-messages');
    await ui.page.getByRole('button', { name: 'Remove queued message: drop this queued one' }).click();
    await waitUntil(
      () => queue.getByRole('listitem').filter({ hasText: 'drop this queued one' }).count(),
      (n) => n === 0,
      'the removed message gone from the queue',
    );

    hold.release();
    await visible(ui.page.getByText('Second request done.'), "the reply to the queued message's turn");
    const bodies = fake.requests.map((r) => r.rawBody);
    expect(bodies.at(-1)).toContain('keep this queued one');
    expect(bodies.some((b) => b.includes('drop this queued one'))).toBe(false);
    const events = await eventsOfSessionWith(world.folders.dataDir, 'First request');
    expect(events.filter((e) => e.type === 'queue_removed')).toHaveLength(1);
    expect(fake.pending()).toBe(0);
  });

  test('Cancel hands a queued message back to the composer once, and a reload does not bring it back', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('returned-ws');
    const hold = createHold();
    fake.enqueue({ text: 'A long answer begins.', hold });
    await ui.openWorkspace(ws);
    await ui.send('Start something long');
    await within(hold.reached, 'the fake model streaming the held reply');
    await ui.send('please come back to me');
    await visible(ui.page.getByRole('list', { name: 'Queued messages' }), 'the list "Queued messages"');

    await ui.page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await waitUntil(
      () => ui.composer().inputValue(),
      (v) => v.includes('please come back to me'),
      'the draft back',
    );
    await within(hold.clientGone, 'the held request aborted by the cancel');
    await waitUntil(
      async () => (await eventsOfSessionWith(world.folders.dataDir, 'Start something long')).map((e) => e.type),
      (types) => types.includes('returned_taken'),
      'returned_taken in the log',
    );

    await ui.composer().fill('');
    await ui.page.reload();
    await ui.focusWaitingSession('returned-ws').catch(() => ui.selectTab('returned-ws'));
    await visible(ui.composer(), 'the composer after the reload');
    await visible(ui.page.getByText('Start something long'), 'the transcript after the reload');
    expect(await ui.composer().inputValue()).not.toContain('please come back to me');
    expect(fake.pending()).toBe(0);
  });
});
