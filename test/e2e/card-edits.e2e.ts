/**
 * Editing a proposal on the write card (SPEC §13, UI.md card rule 11), through the window:
 * the person types into the card's editor (keys that are the card's own answer keys among
 * them, and none answers), the diff follows their text, "Allow with my edits" writes their
 * version, the model's next request carries their changes as a diff, and the transcript says
 * "edited by you" and opens the proposal against what was written. Light and dark, axe clean.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { visible, writeCardLabel } from './harness/gatehouse-page.js';
import { armed, shotsAndAxe } from './harness/light-and-dark.js';
import { waitUntil } from './harness/wait-until.js';

const world = useWorld('card-edits');

const BEFORE = 'export function add(a, b) {\n  return a - b;\n}\n\nexport const name = "calc";\n';
// Right except one name: the person fixes it on the card.
const PROPOSAL = 'export function addNumbers(a, b) {\n  return a + b;\n}\n\nexport const name = "calc";\n';
const EDITED = 'export function add(a, b) { // safe and sound\n  return a + b;\n}\n\nexport const name = "calc";\n';

describe('editing a proposal on the write card', () => {
  test('type into the card, see the diff follow, allow with the edits; the file, the model and the record know', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('edit-ws', { 'calc.js': BEFORE });
    const file = path.join(ws, 'calc.js');
    fake.enqueue(
      { text: 'I will fix add.', toolCalls: [{ name: 'write_file', input: { path: 'calc.js', content: PROPOSAL } }] },
      { text: 'Thanks, I will keep your name.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Fix the add function');
    const label = writeCardLabel(ws, 'calc.js');
    const card = await ui.waitForCard(label);
    await armed(card);
    await shotsAndAxe(world, 'card-edit-offered');

    // The editor loads on demand, with the whole proposal, named for the file.
    await (
      await visible(card.getByRole('button', { name: 'Edit the proposal' }), 'an "Edit the proposal" button')
    ).click();
    const editor = await visible(
      card.getByRole('textbox', { name: 'Your version of calc.js' }),
      'the editor, a text box named "Your version of calc.js"',
    );
    await waitUntil(
      () =>
        editor.evaluate(
          (el) => (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el,
        ),
      Boolean,
      'the editor focused',
    );
    const requestsBefore = fake.requests.length;

    // Rename addNumbers to add, and type a comment holding a, s, d and e: the card's keys.
    await ui.page.keyboard.press('Control+Home');
    for (let i = 0; i < 'export function add'.length; i++) await ui.page.keyboard.press('ArrowRight');
    for (let i = 0; i < 'Numbers'.length; i++) await ui.page.keyboard.press('Delete');
    await ui.page.keyboard.press('End');
    await ui.page.keyboard.type(' // safe and sound');

    // The diff follows: the disk's line against the person's, side by side.
    await visible(
      card.locator('.d2h-ins').filter({ hasText: 'export function add(a, b) { // safe and sound' }),
      "the person's line as an inserted line of the diff",
    );
    await visible(card.getByText('The file on disk → your version:'), 'the caption of the diff of your version');
    // No key typed answered: the card is still open, nothing was written, the model was not asked again.
    expect(await ui.openCard(label).count()).toBe(1);
    expect(await fs.readFile(file, 'utf8')).toBe(BEFORE);
    expect(fake.requests.length).toBe(requestsBefore);

    const allowEdited = card.getByRole('button', { name: 'Allow with my edits', exact: true });
    await visible(allowEdited, 'the fourth answer, "Allow with my edits"');
    await visible(
      card.getByText(/You edited the proposal: allow your version once, or deny/),
      'the note that only the edits or a deny answer now',
    );
    await waitUntil(
      () => allowEdited.evaluate((el) => el.getAttribute('aria-disabled') !== 'true'),
      Boolean,
      '"Allow with my edits" armed',
    );
    // Reset, then redo the edit with the editor's undo: the diff goes back to the proposal and forth again.
    await card.getByRole('button', { name: 'Reset to the proposal' }).click();
    await visible(card.locator('.d2h-ins').filter({ hasText: 'addNumbers' }), "the proposal's diff after Reset");
    expect(await allowEdited.count()).toBe(0);
    await editor.click();
    await ui.page.keyboard.press('Control+z');
    await visible(
      card.locator('.d2h-ins').filter({ hasText: '// safe and sound' }),
      "the person's line again after undoing the reset",
    );
    await waitUntil(
      () => allowEdited.evaluate((el) => el.getAttribute('aria-disabled') !== 'true'),
      Boolean,
      '"Allow with my edits" armed again',
    );
    await shotsAndAxe(world, 'card-edited');

    await ui.clickArmed(allowEdited, 'the "Allow with my edits" button');
    await expect.poll(() => fs.readFile(file, 'utf8'), { timeout: 30_000 }).toBe(EDITED);
    await visible(ui.page.getByText('Thanks, I will keep your name.'), "the model's closing text");
    await ui.cardClosed(label);

    // The model's next request: its tool result says the person edited it, with the diff.
    const next = fake.requests.at(-1)!.rawBody;
    expect(next).toContain('The user edited your proposal');
    expect(next).toContain('-export function addNumbers(a, b) {');
    expect(next).toContain('+export function add(a, b) { // safe and sound');
    expect(fake.pending()).toBe(0);

    // The record: "edited by you", and the proposal against what was written a click away.
    const row = ui.page.locator('.tool-row').filter({ hasText: 'calc.js' });
    await visible(row.getByText(/Allowed once, edited by you/), 'the row saying "Allowed once, edited by you"');
    await (
      await visible(
        row.getByRole('button', { name: /Your edits: the model's proposal → what was written/ }),
        'a "Your edits" toggle on the row',
      )
    ).click();
    await visible(row.locator('.d2h-del').filter({ hasText: 'addNumbers' }), "the proposal's line, deleted");
    await visible(row.locator('.d2h-ins').filter({ hasText: '// safe and sound' }), "the person's line, inserted");
    await shotsAndAxe(world, 'record-edited');
  });

  test('a file changed before the answer: the card asks again with the edits kept, and they are what lands', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('stale-ws', { 'calc.js': BEFORE });
    const file = path.join(ws, 'calc.js');
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'calc.js', content: PROPOSAL } }] },
      { text: 'Written as you edited it.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Fix the add function again');
    const label = writeCardLabel(ws, 'calc.js');
    const first = await ui.waitForCard(label);
    await (await visible(first.getByRole('button', { name: 'Edit the proposal' }), 'the Edit button')).click();
    await visible(first.getByRole('textbox', { name: 'Your version of calc.js' }), 'the editor');
    await ui.page.keyboard.press('Control+End');
    await ui.page.keyboard.type('// mine\n');
    const mine = `${PROPOSAL}// mine\n`;
    const allowEdited = first.getByRole('button', { name: 'Allow with my edits', exact: true });
    await waitUntil(
      () => allowEdited.evaluate((el) => el.getAttribute('aria-disabled') !== 'true'),
      Boolean,
      '"Allow with my edits" armed',
    );
    // Someone changes the file while the card is up: the answer is stale, and the card asks again.
    const changedOnDisk = `${BEFORE}// changed by someone else\n`;
    await fs.writeFile(file, changedOnDisk);
    const firstId = await first.getAttribute('data-card-id');
    await allowEdited.click();
    const again = ui.openCard(label).and(ui.page.locator(`[data-card-id]:not([data-card-id="${firstId}"])`));
    await visible(again, 'the card asked again');
    await visible(
      again.getByText('Your edits are kept; the file changed on disk, this is the diff as it is now.'),
      'the note that the edits are kept',
    );
    const editor = await visible(again.getByRole('textbox', { name: 'Your version of calc.js' }), 'the editor, opened');
    await waitUntil(
      () => editor.evaluate((el) => el.textContent ?? ''),
      (text) => text.includes('// mine'),
      'the kept edits in the editor',
    );
    await visible(
      again.locator('.d2h-del').filter({ hasText: '// changed by someone else' }),
      'the diff against the file as it is now',
    );
    expect(await fs.readFile(file, 'utf8')).toBe(changedOnDisk);
    await armed(again, 'Deny');
    await shotsAndAxe(world, 'card-edits-kept');
    // This time with the card's own key: E, with the card itself focused.
    const againEdited = again.getByRole('button', { name: 'Allow with my edits', exact: true });
    await waitUntil(
      () => againEdited.evaluate((el) => el.getAttribute('aria-disabled') !== 'true'),
      Boolean,
      '"Allow with my edits" armed on the card asked again',
    );
    await again.focus();
    await ui.page.keyboard.press('e');
    await expect.poll(() => fs.readFile(file, 'utf8'), { timeout: 30_000 }).toBe(mine);
    await visible(ui.page.getByText('Written as you edited it.'), "the model's closing text");
    expect(fake.pending()).toBe(0);
  });

  test('in a long diff, the rows follow the line being edited into view', async () => {
    const { ui, fake } = world;
    const numbered = (n: number, changed: (i: number) => boolean) =>
      Array.from({ length: n }, (_, i) => `${changed(i) ? 'changed ' : ''}line ${i + 1}`).join('\n') + '\n';
    // Every 5th line changed: one hunk of about 720 rows, far taller than the diff's window.
    const ws = await world.folders.workspace('long-ws', { 'long.txt': numbered(600, () => false) });
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'long.txt', content: numbered(600, (i) => i % 5 === 0) } }] },
      { text: 'Left as it was.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Change the long file');
    const label = writeCardLabel(ws, 'long.txt');
    const card = await ui.waitForCard(label);
    await (await visible(card.getByRole('button', { name: 'Edit the proposal' }), 'the Edit button')).click();
    await visible(card.getByRole('textbox', { name: 'Your version of long.txt' }), 'the editor');
    // Line 500 is "line 500"; go there with the keyboard and type at its end.
    await ui.page.keyboard.press('Control+Home');
    for (let i = 1; i < 500; i++) await ui.page.keyboard.press('ArrowDown');
    await ui.page.keyboard.press('End');
    await ui.page.keyboard.type(' edited here');
    const mine = card.locator('.diff-view .d2h-ins').filter({ hasText: 'line 500 edited here' });
    await visible(mine, 'the edited line 500 in the diff');
    const scroller = card.locator('.diff-view-scroll');
    const [row, view] = [await mine.boundingBox(), await scroller.boundingBox()];
    expect(row && view && row.y >= view.y && row.y + row.height <= view.y + view.height + 1).toBe(true);
    await ui.answer(card, 'Deny');
    await visible(ui.page.getByText('Left as it was.'), "the model's text after the denial");
  });
});
