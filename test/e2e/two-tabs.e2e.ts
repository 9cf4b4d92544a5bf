/**
 * Two sessions at once: one streams (its reply held open by the fake model) while the
 * other waits on a card. The waiting list names the waiting one, and a click on it brings
 * its tab forward with the card.
 */
import { describe, expect, test } from 'vitest';
import { createHold } from '../fake-model/server.js';
import { useWorld } from './harness/e2e-world.js';
import { visible, writeCardLabel } from './harness/gatehouse-page.js';
import { within } from './harness/wait-until.js';

const world = useWorld('two-tabs');

describe('two tabs and the waiting list', () => {
  test('the waiting list shows the session on a card while the other streams, and a click focuses its tab', async () => {
    const { ui, fake } = world;
    const streaming = await world.folders.workspace('streaming-ws');
    const waiting = await world.folders.workspace('waiting-ws');
    const hold = createHold();
    fake.enqueue({ text: 'Streaming a long answer, part one.', hold });
    await ui.openWorkspace(streaming);
    await ui.send('Tell me a long story');
    await within(hold.reached, 'the fake model streaming the held reply');
    await visible(ui.page.getByText(/Streaming a long answer/), 'the streamed text in the first tab');

    fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'w.txt', content: 'waiting\n' } }] });
    await ui.openWorkspace(waiting);
    await ui.send('Write w');
    const label = writeCardLabel(waiting, 'w.txt');
    await ui.waitForCard(label);

    await ui.selectTab('streaming-ws');
    const list = await visible(ui.waitingList(), 'the list "Waiting for you"');
    const item = await visible(
      list.getByRole('listitem').filter({ hasText: 'waiting-ws' }),
      'a waiting item naming waiting-ws',
    );
    expect(await list.getByRole('listitem').filter({ hasText: 'streaming-ws' }).count()).toBe(0);
    await world.shot('two-tabs-waiting-list');

    await item.click();
    const waitingTab = ui.tabs().filter({ hasText: 'waiting-ws' });
    await expect.poll(() => waitingTab.getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true');
    const card = await ui.waitForCard(label);

    fake.enqueue({ text: 'Left w alone.' });
    await ui.answer(card, 'Deny');
    await visible(ui.page.getByText('Left w alone.'), "the waiting session's closing text");
    hold.release();
    await ui.selectTab('streaming-ws');
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 30_000 }).toBe(0);
    expect(fake.pending()).toBe(0);
  });
});
