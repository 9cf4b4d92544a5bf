/**
 * UI.md's card rules, in the browser: no answer by accident (a click while the card arms,
 * typing and Enter in the composer), a card never takes focus from the composer, the
 * keys A / S / D with the card focused, and file content shown as text, never as HTML.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { allLoggedEvents } from './harness/session-logs.js';
import { useWorld } from './harness/e2e-world.js';
import { visible, writeCardLabel } from './harness/gatehouse-page.js';
import { waitUntil } from './harness/wait-until.js';

const world = useWorld('card-rules');

/** Answers the host logged for cards on files in this workspace. */
async function answersIn(ws: string): Promise<string[]> {
  const events = await allLoggedEvents(world.folders.dataDir);
  const cardsHere = new Set(
    events.flatMap((e) =>
      e.type === 'card' && e.body.kind === 'write' && e.body.path.startsWith(ws) ? [e.cardId] : [],
    ),
  );
  return events.flatMap((e) => (e.type === 'card_answer' && cardsHere.has(e.cardId) ? [e.answer] : []));
}

/**
 * In the page: the moment a write card mounts, click its "Allow once" (in the same task, so
 * well inside the 0.5 s of arming). Resolves to whether the button said it was disarmed.
 */
const CLICK_AS_SOON_AS_IT_APPEARS = `new Promise((resolve) => {
  const tryClick = () => {
    const region = document.querySelector('[role="region"][aria-label^="Permission: write"]');
    const button = region && [...region.querySelectorAll('button')].find((b) => b.textContent.startsWith('Allow once'));
    if (!button) return false;
    const disarmed = button.disabled || button.getAttribute('aria-disabled') === 'true';
    button.click();
    resolve(disarmed);
    return true;
  };
  if (tryClick()) return;
  const observer = new MutationObserver(() => { if (tryClick()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
})`;

describe('card rules in the browser', () => {
  test('a click while the card arms does nothing; once armed, D with the card focused denies', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('arming-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'x.txt', content: 'x\n' } }] },
      { text: 'Not written.' },
    );
    await ui.openWorkspace(ws);
    const clicked = ui.page.evaluate(CLICK_AS_SOON_AS_IT_APPEARS) as Promise<boolean>;
    await ui.send('Write x');
    expect(await clicked, 'the button showed it was disarmed when clicked at once').toBe(true);
    const card = await ui.waitForCard(writeCardLabel(ws, 'x.txt'));
    const allowOnce = card.getByRole('button', { name: 'Allow once', exact: true });
    await waitUntil(
      () => allowOnce.getAttribute('aria-disabled'),
      (v) => v !== 'true',
      'the card armed',
    );
    expect(await answersIn(ws)).toEqual([]);
    expect(await ui.openCard(writeCardLabel(ws, 'x.txt')).count()).toBe(1);

    await card.focus();
    await ui.page.keyboard.press('d');
    await visible(ui.page.getByText('Not written.'), "the model's text after the denial");
    expect(await answersIn(ws)).toEqual(['deny']);
    await expect(fs.access(path.join(ws, 'x.txt'))).rejects.toThrow();
    expect(fake.pending()).toBe(0);
  });

  test('a card does not take focus from the composer, and typing there (a, s, Enter) never answers it', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('typing-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 't.txt', content: 't\n' } }] },
      { text: 'Typed safely.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Write t');
    const composer = ui.composer();
    await composer.focus();
    await composer.pressSequentially('still typing');
    const label = writeCardLabel(ws, 't.txt');
    const card = await ui.waitForCard(label);
    expect(await composer.evaluate((el) => el === el.ownerDocument.activeElement), 'composer keeps focus').toBe(true);

    const allowOnce = card.getByRole('button', { name: 'Allow once', exact: true });
    await waitUntil(
      () => allowOnce.getAttribute('aria-disabled'),
      (v) => v !== 'true',
      'the card armed',
    );
    await composer.focus();
    for (const key of ['a', 's', 'A', 'Enter', 'Control+Enter']) await ui.page.keyboard.press(key);
    await world.shot('typing-while-card-open');
    expect(await answersIn(ws)).toEqual([]);
    expect(await ui.openCard(label).count()).toBe(1);

    await ui.answer(card, 'Allow once');
    await expect
      .poll(() => fs.readFile(path.join(ws, 't.txt'), 'utf8').catch(() => ''), { timeout: 30_000 })
      .toBe('t\n');
    await visible(ui.page.getByText('Typed safely.'), "the model's closing text");
    expect(await answersIn(ws)).toEqual(['allow_once']);
    expect(fake.pending()).toBe(0);
  });

  test('HTML in a proposed file is shown as text and never runs', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('html-ws');
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\n';
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'page.html', content: hostile } }] },
      { text: 'Left it.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Write the page');
    const card = await ui.waitForCard(writeCardLabel(ws, 'page.html'));
    await visible(
      card.getByText('<img src=x onerror="window.__pwned=1">', { exact: false }),
      'the markup as literal text',
    );
    expect(await card.locator('img, script').count()).toBe(0);
    expect(await ui.page.evaluate('window.__pwned')).toBeUndefined();
    await ui.answer(card, 'Deny');
    await visible(ui.page.getByText('Left it.'), "the model's closing text");
    expect(await ui.page.evaluate('window.__pwned')).toBeUndefined();
    expect(fake.pending()).toBe(0);
  });

  test('a file changed after the card went up: the answer is not used, and the card asks again saying why', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('stale-ws', { 's.txt': 'one\n' });
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 's.txt', content: 'two\n' } }] },
      { text: 'Wrote s.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Write s');
    const label = writeCardLabel(ws, 's.txt');
    const first = await ui.waitForCard(label);
    const firstId = await first.getAttribute('data-card-id');
    await fs.writeFile(path.join(ws, 's.txt'), 'changed behind the card\n');
    await ui.answer(first, 'Allow once');

    const again = await visible(
      ui.openCard(label).filter({ hasText: 'The file changed after the last card' }),
      'the card asked again, saying the file changed',
    );
    expect(await again.getAttribute('data-card-id')).not.toBe(firstId);
    await visible(again.getByText('changed behind the card'), 'the new diff, against the changed file');
    expect(await fs.readFile(path.join(ws, 's.txt'), 'utf8')).toBe('changed behind the card\n');
    await world.shot('card-reasked');
    await ui.answer(again, 'Allow once');
    await expect.poll(() => fs.readFile(path.join(ws, 's.txt'), 'utf8'), { timeout: 30_000 }).toBe('two\n');
    await visible(ui.page.getByText('Wrote s.'), "the model's closing text");
    expect(fake.pending()).toBe(0);
  });

  test('a read outside the workspace asks with the absolute path', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('read-ws');
    const outside = path.join(
      await world.folders.workspace('elsewhere', { 'secret.txt': 'outside text\n' }),
      'secret.txt',
    );
    fake.enqueue({ toolCalls: [{ name: 'read_file', input: { path: outside } }] }, { text: 'Did not read it.' });
    await ui.openWorkspace(ws);
    await ui.send('Read the outside file');
    const card = await ui.waitForCard(`Permission: read ${outside}`);
    await visible(card.getByText(outside), 'the absolute path on the card');
    await world.shot('read-card');
    await ui.answer(card, 'Deny');
    await visible(ui.page.getByText('Did not read it.'), "the model's text after the denial");
    expect(fake.requests.at(-1)?.rawBody).not.toContain('outside text');
    expect(fake.pending()).toBe(0);
  });
});
