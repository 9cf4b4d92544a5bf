/**
 * A write through the window: the card shows the real diff side by side (and line by line),
 * "Allow once" puts exactly the proposed bytes on disk, and "Allow for this session" lets the
 * next write to that same file through with no card while another file still asks.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { allLoggedEvents } from './harness/session-logs.js';
import { useWorld } from './harness/e2e-world.js';
import { visible, writeCardLabel } from './harness/gatehouse-page.js';

const world = useWorld('write-card');

async function box(locator: Locator, what: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await (await visible(locator, what)).boundingBox();
  if (!found) throw new Error(`${what} has no box on screen`);
  return found;
}

describe('a write card in the window', () => {
  test('the empty window shows the sessions sidebar and the waiting list', async () => {
    const { ui } = world;
    await visible(ui.sidebar(), 'the sidebar (nav "Sessions")');
    await world.shot('empty-window');
    expect(await ui.tabs().count()).toBe(0);
  });

  test('shows the diff side by side and line by line, and Allow once writes the exact bytes', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('notes-ws', { 'notes.txt': 'alpha\nbeta\n' });
    const proposal = 'alpha\nbeta changed\ngamma <b>not bold</b>\n';
    fake.enqueue(
      {
        text: 'I will edit the notes.',
        toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: proposal } }],
      },
      { text: 'The notes are edited.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Please edit the notes');
    const label = writeCardLabel(ws, 'notes.txt');
    const card = await ui.waitForCard(label);

    // Side by side: diff2html's line classes, and the old and new line on one row, old on the left.
    await visible(card.locator('.d2h-ins'), "diff2html's inserted-line class (.d2h-ins)");
    await visible(card.locator('.d2h-del'), "diff2html's deleted-line class (.d2h-del)");
    const oldLine = card.locator('.d2h-del').filter({ hasText: 'beta', hasNotText: 'changed' });
    const newLine = card.locator('.d2h-ins').filter({ hasText: 'beta changed' });
    const [before, after] = [
      await box(oldLine, 'the deleted line "beta"'),
      await box(newLine, 'the new line "beta changed"'),
    ];
    expect(Math.abs(before.y - after.y)).toBeLessThan(4);
    expect(after.x).toBeGreaterThan(before.x + before.width / 2);
    // The model's markup is shown as literal text, never as HTML.
    await visible(card.getByText('gamma <b>not bold</b>'), 'the new line "gamma <b>not bold</b>", as literal text');
    expect(await card.locator('b').count()).toBe(0);
    await world.shot('write-card-side-by-side');

    await ui.page.emulateMedia({ colorScheme: 'dark' });
    await world.shot('write-card-dark');
    await ui.page.emulateMedia({ colorScheme: 'light' });

    // Line by line: the old line above the new one, in one column.
    await (await visible(card.getByRole('button', { name: 'Line by line' }), 'a "Line by line" toggle')).click();
    const [above, below] = [await box(oldLine, 'the deleted line'), await box(newLine, 'the new line')];
    expect(below.y).toBeGreaterThan(above.y + above.height / 2);
    expect(Math.abs(below.x - above.x)).toBeLessThan(4);
    await world.shot('write-card-line-by-line');

    await ui.answer(card, 'Allow once');
    await expect.poll(() => fs.readFile(path.join(ws, 'notes.txt'), 'utf8'), { timeout: 30_000 }).toBe(proposal);
    await visible(ui.page.getByText('The notes are edited.'), "the model's closing text");
    await ui.cardClosed(label);
    expect(fake.pending()).toBe(0);
  });

  test('Allow for this session passes the next write to that file with no card; another file still asks', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('grant-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'one\n' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'two\n' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: 'b.txt', content: 'b\n' } }] },
      { text: 'Stopped at b.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Write a twice, then b');
    const aLabel = writeCardLabel(ws, 'a.txt');
    const aCard = await ui.waitForCard(aLabel);
    await visible(aCard.getByText(/for the rest of this session/), "the grant's scope in words next to the button");
    await ui.answer(aCard, 'Allow for this session');

    const bLabel = writeCardLabel(ws, 'b.txt');
    const bCard = await ui.waitForCard(bLabel);
    expect(await fs.readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('two\n');
    const cards = (await allLoggedEvents(world.folders.dataDir)).filter(
      (e) => e.type === 'card' && e.body.kind === 'write' && e.body.path.startsWith(ws),
    );
    expect(cards.map((e) => (e.type === 'card' && e.body.kind === 'write' ? e.body.path : ''))).toEqual([
      path.join(ws, 'a.txt'),
      path.join(ws, 'b.txt'),
    ]);
    expect(await ui.openCard(aLabel).count()).toBe(0);

    await ui.answer(bCard, 'Deny');
    await visible(ui.page.getByText('Stopped at b.'), "the model's text after the denial");
    await expect(fs.access(path.join(ws, 'b.txt'))).rejects.toThrow();
    expect(fake.pending()).toBe(0);
  });

  test('the settings screen opens and shows the configured model', async () => {
    const { ui } = world;
    await (await visible(ui.page.getByRole('button', { name: 'Settings' }), 'a "Settings" button')).click();
    await expect
      .poll(
        () =>
          ui.page
            .locator('input, select')
            .evaluateAll((fields) => fields.some((f) => (f as unknown as { value: string }).value === 'fake')),
        { timeout: 30_000, message: 'a Settings field holding the model id "fake"' },
      )
      .toBe(true);
    await world.shot('settings');
    await ui.page.keyboard.press('Escape');
  });
});
