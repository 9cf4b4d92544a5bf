/**
 * axe-core finds no violation on any main screen, light or dark: empty, settings, a write
 * card, a command card, a question, a finished turn, the terminal open. Each screen is
 * photographed in both themes (test-results/e2e/accessibility-<screen>-<theme>.png), and a
 * failure names each violation's rule, impact and first nodes.
 */
import { describe, expect, test } from 'vitest';
import { axeViolations, describeViolations } from './harness/axe.js';
import { useWorld } from './harness/e2e-world.js';
import { runCardLabel, visible, writeCardLabel } from './harness/gatehouse-page.js';
import { waitUntil } from './harness/wait-until.js';

const world = useWorld('accessibility');

const SCHEMES = ['light', 'dark'] as const;

/** Two animation frames: the new colour scheme's styles have been applied and painted. */
const AFTER_PAINT = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))';

async function expectNoViolations(screen: string): Promise<void> {
  const { page } = world.ui;
  const reports: string[] = [];
  try {
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      await page.evaluate(AFTER_PAINT);
      await world.shot(`${screen}-${colorScheme}`);
      const violations = await axeViolations(page);
      if (violations.length > 0) reports.push(describeViolations(`${screen}, ${colorScheme}`, violations));
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  if (reports.length > 0) console.error(reports.join('\n'));
  expect(reports, reports.join('\n')).toEqual([]);
}

/** Waits until a card's answers are armed, so the screen is the one a person acts on. */
async function armed(card: Awaited<ReturnType<typeof world.ui.waitForCard>>): Promise<void> {
  const allow = card.getByRole('button', { name: 'Allow once', exact: true });
  await waitUntil(
    () => allow.evaluate((el) => !el.hasAttribute('disabled') && el.getAttribute('aria-disabled') !== 'true'),
    Boolean,
    'the card armed',
  );
}

describe('accessibility of the main screens (axe-core, light and dark)', () => {
  test('empty window', async () => {
    await visible(world.ui.sidebar(), 'the sidebar (nav "Sessions")');
    expect(await world.ui.tabs().count()).toBe(0);
    await expectNoViolations('empty');
  });

  test('settings', async () => {
    const { ui } = world;
    await ui.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = await visible(ui.page.getByRole('dialog'), 'the Settings dialog');
    // With Test connection's answer on screen, so its words are checked too.
    world.fake.enqueue({ text: 'OK' });
    await (
      await visible(dialog.getByRole('button', { name: 'Test connection' }), 'the "Test connection" button')
    ).click();
    await visible(dialog.getByText('Works: fake answered.'), 'the answer "Works: fake answered."');
    await expectNoViolations('settings');
    await ui.page.keyboard.press('Escape');
    await waitUntil(
      () => ui.page.getByRole('dialog').count(),
      (n) => n === 0,
      'the Settings dialog closed by Esc',
    );
  });

  test('write card', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('write-ws', { 'notes.txt': 'alpha\nbeta\n' });
    fake.enqueue(
      {
        text: 'I will edit the notes.',
        toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'alpha\nbeta changed\n' } }],
      },
      { text: 'Left the notes alone.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Edit the notes');
    const card = await ui.waitForCard(writeCardLabel(ws, 'notes.txt'));
    await armed(card);
    await visible(ui.waitingList(), 'the "Waiting for you" list holding the card');
    // Answered whatever axe says, so the next screen does not start under this card.
    await expectNoViolations('write-card').finally(() => ui.answer(card, 'Deny'));
    await visible(ui.page.getByText('Left the notes alone.'), "the model's text after the denial");
  });

  test('command card', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('command-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['npm', 'test', '--', '--watch=false'] } }] },
      { text: 'Not running the tests, then.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Run the tests');
    const card = await ui.waitForCard(runCardLabel('npm'));
    await armed(card);
    await expectNoViolations('command-card').finally(() => ui.answer(card, 'Deny'));
    await visible(ui.page.getByText('Not running the tests, then.'), "the model's text after the denial");
  });

  test('question', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('question-ws');
    fake.enqueue(
      {
        toolCalls: [
          { name: 'ask', input: { question: 'Which colour should the button be?', options: ['red', 'teal'] } },
        ],
      },
      { text: 'Teal it is.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Pick a colour with me');
    const card = await visible(ui.questionCard(), 'a region "Question"');
    const teal = card.getByRole('button', { name: 'teal', exact: true });
    await waitUntil(() => teal.isEnabled(), Boolean, 'the question armed');
    await expectNoViolations('question').finally(() => ui.clickArmed(teal, 'the option "teal"'));
    await visible(ui.page.getByText('Teal it is.'), "the model's text after the answer");
  });

  test('finished turn', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('finished-ws', { 'a.txt': 'contents of a\n' });
    fake.enqueue(
      { text: 'Reading the file.', toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] },
      { text: '**Done.** The file holds one line:\n\n- `contents of a`\n\nSee [the docs](https://example.com/docs).' },
    );
    await ui.openWorkspace(ws);
    await ui.send('What is in a.txt?');
    await visible(ui.page.getByText('Done.'), "the model's closing text");
    await ui.composer().fill('');
    await expectNoViolations('finished-turn');
  });

  test('terminal open', async () => {
    const { ui } = world;
    await ui.page.keyboard.press('Control+Backquote');
    const panel = await visible(
      ui.page.getByRole('region', { name: 'Terminal', exact: true }),
      'the terminal panel after Ctrl+`',
    );
    await visible(panel.locator('.xterm-rows'), 'the xterm.js screen');
    await expectNoViolations('terminal');
  });
});
