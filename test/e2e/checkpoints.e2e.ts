/**
 * Checkpoints through the window (SPEC §12, UI.md card rule 10): a command's record lists the
 * files it changed, each opening as a diff; the turn's Changes view undoes and redoes the
 * turn on disk; a rewind puts the code and the conversation back to a message. Each screen
 * is photographed light and dark, with axe clean in both.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { runCardLabel, visible } from './harness/gatehouse-page.js';
import { shotsAndAxe } from './harness/light-and-dark.js';

const world = useWorld('checkpoints');

const BEFORE = { 'calc.py': 'def add(a, b):\n    return a - b\n', 'notes.txt': 'remember the milk\n' };
const FIX = [
  "printf 'def add(a, b):\\n    return a + b\\n' > calc.py",
  'mkdir -p out',
  'echo total > out/report.txt',
  'rm notes.txt',
].join(' && ');

const read = (ws: string, file: string) => fs.readFile(path.join(ws, file), 'utf8').catch(() => null);

async function onDisk(ws: string) {
  return {
    calc: await read(ws, 'calc.py'),
    notes: await read(ws, 'notes.txt'),
    report: await read(ws, 'out/report.txt'),
  };
}

const FIXED = { calc: 'def add(a, b):\n    return a + b\n', notes: null, report: 'total\n' };
const ORIGINAL = { calc: BEFORE['calc.py'], notes: BEFORE['notes.txt'], report: null };

describe('checkpoints in the window', () => {
  test('a command’s record lists what it changed; the turn’s Changes undo and redo it; a rewind puts it all back', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('calc-ws', BEFORE);
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', FIX] } }] },
      { text: 'Fixed the calculator.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Fix the calculator');
    await ui.answer(await ui.waitForCard(runCardLabel('sh')), 'Allow once');
    await visible(ui.page.getByText('Fixed the calculator.'), "the model's closing text");
    expect(await onDisk(ws)).toEqual(FIXED);

    // The record: one row, its answer, its state, and the files it changed, each a diff.
    const row = ui.page.locator('.tool-row').filter({ hasText: 'Allowed once' });
    await visible(row.getByText(/changed 3 files/), 'the row saying "changed 3 files"');
    expect(await ui.page.locator('.tool-row').count()).toBe(1);
    const files = row.getByRole('list', { name: 'Files changed' });
    expect(await files.getByRole('button').allTextContents()).toEqual([
      '▸ ~calc.pymodified, 32 bytes',
      '▸ −notes.txtdeleted, was 18 bytes',
      '▸ +out/report.txtadded, 6 bytes',
    ]);
    await files.getByRole('button', { name: /calc\.py/ }).click();
    await visible(files.locator('.d2h-ins').filter({ hasText: 'return a + b' }), 'the diff of calc.py');
    await shotsAndAxe(world, 'command-record');

    // The turn's Changes: every file with its diff; Undo turn puts the workspace back.
    await ui.page.getByRole('button', { name: 'Changes · 3 files' }).click();
    const changes = await visible(ui.page.getByRole('dialog', { name: 'Changes' }), 'the Changes dialog');
    await visible(changes.getByText('This turn changed 3 files.'), 'the count of files in the Changes view');
    await visible(changes.locator('.d2h-del').filter({ hasText: 'remember the milk' }), 'the deleted file’s diff');
    await shotsAndAxe(world, 'changes-view');
    await changes.getByRole('button', { name: 'Undo turn' }).click();
    await visible(changes.getByText('Undone.'), 'the view saying "Undone."');
    await expect.poll(() => onDisk(ws)).toEqual(ORIGINAL);
    await visible(
      changes.getByRole('status').filter({ hasText: /^Undid the turn: restored 3 files/ }),
      'what the undo did',
    );
    await shotsAndAxe(world, 'changes-undone');

    await changes.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => onDisk(ws)).toEqual(FIXED);
    await visible(changes.getByRole('button', { name: 'Undo turn' }), 'Undo turn offered again after the redo');
    await ui.page.keyboard.press('Escape');
    await visible(ui.page.getByText(/^Undid a turn: restored 3 files/), 'the undo as a divider in the transcript');
    await visible(ui.page.getByText(/^Redid the undo: restored 3 files/), 'the redo as a divider');

    // Rewind to the message: code and conversation both.
    const message = ui.page.locator('.user-message-row').filter({ hasText: 'Fix the calculator' });
    await message.hover();
    await message.getByRole('button', { name: 'Rewind to here…' }).click();
    const rewind = await visible(ui.page.getByRole('dialog', { name: 'Rewind' }), 'the Rewind dialog');
    await visible(rewind.getByRole('radio', { name: /Both/ }), 'the choice "Both"');
    expect(await rewind.getByRole('radio', { name: /Both/ }).isChecked()).toBe(true);
    await shotsAndAxe(world, 'rewind-choices');
    await rewind.getByRole('button', { name: 'Rewind both' }).click();
    await expect.poll(() => onDisk(ws)).toEqual(ORIGINAL);
    await visible(
      ui.page.getByText('Rewound — the model no longer sees this'),
      'the note where the rewound range starts',
    );
    await visible(
      ui.page.getByText(/^Rewound the conversation and the code to “Fix the calculator”/),
      'the rewind divider',
    );
    expect(await ui.composer().inputValue()).toBe('Fix the calculator');
    await shotsAndAxe(world, 'rewound');
    expect(fake.pending()).toBe(0);
  });
});
