/**
 * An open card outlives the page and the host: after a reload, and after the host is
 * killed with SIGKILL and started again on the same data folder, the card is still there
 * and its answer still lands the exact bytes on disk.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { visible, writeCardLabel } from './harness/gatehouse-page.js';

const world = useWorld('survive-restart');

describe('an open card survives', () => {
  test('a page reload: the card is back and still answers', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('reload-ws');
    fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'r.txt', content: 'after reload\n' } }] });
    await ui.openWorkspace(ws);
    await ui.send('Write r');
    const label = writeCardLabel(ws, 'r.txt');
    await ui.waitForCard(label);

    await ui.page.reload();
    await ui.focusWaitingSession('reload-ws');
    const card = await ui.waitForCard(label);
    fake.enqueue({ text: 'Wrote r after the reload.' });
    await ui.answer(card, 'Allow once');
    await expect
      .poll(() => fs.readFile(path.join(ws, 'r.txt'), 'utf8').catch(() => ''), { timeout: 30_000 })
      .toBe('after reload\n');
    await visible(ui.page.getByText('Wrote r after the reload.'), "the model's text after the answer");
    expect(fake.pending()).toBe(0);
  });

  test('kill -9 of the host: started again on the same data folder, the page reconnects and the card answers', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('crash-ws');
    fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'k.txt', content: 'after crash\n' } }] });
    await ui.openWorkspace(ws);
    await ui.send('Write k');
    const label = writeCardLabel(ws, 'k.txt');
    await ui.waitForCard(label);

    const before = world.host;
    const lost = ui.page.getByRole('status').filter({ hasText: /lost|not reachable/i });
    const after = await world.crashAndRestartHost(async () => {
      await visible(lost, 'the page saying the connection is lost (role "status")');
      await world.shot('host-down');
    });
    if (after.url !== before.url) {
      // A new port or a new token: the old page cannot reach it, so it loads the new URL.
      console.info(`web host came back at a different URL (port ${before.port} -> ${after.port}); reloading the page`);
      await ui.goto(after.url);
      await ui.focusWaitingSession('crash-ws');
    } else {
      await expect.poll(() => lost.count(), { timeout: 30_000, message: 'the page reconnected by itself' }).toBe(0);
    }
    const card = await ui.waitForCard(label);
    await world.shot('after-host-restart');
    fake.enqueue({ text: 'Wrote k after the crash.' });
    await ui.answer(card, 'Allow once');
    await expect
      .poll(() => fs.readFile(path.join(ws, 'k.txt'), 'utf8').catch(() => ''), { timeout: 30_000 })
      .toBe('after crash\n');
    await visible(ui.page.getByText('Wrote k after the crash.'), "the model's text after the answer");
    expect(fake.pending()).toBe(0);
  });
});
