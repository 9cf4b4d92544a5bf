/**
 * A session in a place of its own through the real web host (SPEC §15), in Debian's
 * Chromium: the Open dialog makes a worktree of a git repository; the model's command runs
 * in the place and the person's folder stays as it was; the review lists what changed; Apply
 * writes exactly those files into the person's folder (git status shows them and nothing
 * else); Discard removes the place and its branch. The review is photographed light and dark,
 * with axe clean in both.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { runCardLabel, visible } from './harness/gatehouse-page.js';
import { shotsAndAxe } from './harness/light-and-dark.js';

const run = promisify(execFile);
const world = useWorld('places-host');

const BEFORE = { 'calc.py': 'def add(a, b):\n    return a - b\n', 'notes.txt': 'remember the milk\n' };
const FIX = ["printf 'def add(a, b):\\n    return a + b\\n' > calc.py", 'echo total > report.txt'].join(' && ');

async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, HOME: world.folders.home, GIT_CONFIG_NOSYSTEM: '1' };
  const { stdout } = await run('git', ['-c', 'user.name=Me', '-c', 'user.email=me@example.com', ...args], {
    cwd,
    env,
  });
  return stdout;
}

async function repository(): Promise<string> {
  const ws = await world.folders.workspace('calc-repo', BEFORE);
  await git(ws, 'init', '-q', '-b', 'main');
  await git(ws, 'add', '-A');
  await git(ws, 'commit', '-q', '-m', 'start');
  return ws;
}

const read = (ws: string, file: string) => fs.readFile(path.join(ws, file), 'utf8').catch(() => null);

describe('a session in a place of its own, through the web host', () => {
  test('open in a worktree, the command runs there, review, apply to the folder, discard', async () => {
    const { ui, fake } = world;
    const ws = await repository();
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', FIX] } }] },
      { text: 'Fixed the calculator.' },
    );

    await ui.page.keyboard.press('Control+o');
    const open = await visible(ui.page.getByRole('dialog', { name: 'Open a folder' }), 'the Open dialog');
    await open.getByRole('combobox', { name: 'Folder' }).fill(ws);
    await open.getByRole('checkbox', { name: 'Work in a place of its own' }).check();
    await open.getByRole('combobox', { name: 'Folder' }).press('Enter');
    const line = await visible(ui.page.getByRole('note', { name: 'Place of its own' }), 'the session’s place line');
    await visible(line.getByText(/gatehouse\//), 'the place’s branch in the session’s line');
    const branch = (await line.locator('.place-branch').textContent())!.trim();
    expect(branch).toMatch(/^gatehouse\//);

    await ui.send('Fix the calculator');
    await ui.answer(await ui.waitForCard(runCardLabel('sh')), 'Allow once');
    await visible(ui.page.getByText('Fixed the calculator.'), "the model's closing text");
    // The person's folder is as it was: the command ran in the place.
    expect(await read(ws, 'calc.py')).toBe(BEFORE['calc.py']);
    expect(await read(ws, 'report.txt')).toBeNull();
    expect(await git(ws, 'status', '--porcelain')).toBe('');

    await ui.page.keyboard.press('Control+Shift+G');
    const review = await visible(
      ui.page.getByRole('dialog', { name: 'Review the place’s changes' }),
      'the review screen after Ctrl+Shift+G',
    );
    const files = await visible(review.getByRole('list', { name: 'Files the session changed' }), 'the reviewed files');
    await visible(files.locator('.d2h-ins').filter({ hasText: 'return a + b' }), 'the diff of calc.py');
    expect((await files.locator('.review-status').allTextContents()).sort()).toEqual([
      'Ready to apply',
      'Ready to apply',
    ]);
    await shotsAndAxe(world, 'review');

    await review.getByRole('button', { name: 'Apply to my folder (2 files)' }).click();
    await visible(review.getByRole('status').getByText(`Applied 2 files to ${ws}.`), 'what the apply did');
    await expect.poll(() => read(ws, 'calc.py')).toBe('def add(a, b):\n    return a + b\n');
    expect(await read(ws, 'report.txt')).toBe('total\n');
    expect((await git(ws, 'status', '--porcelain')).split('\n').filter(Boolean).sort()).toEqual([
      ' M calc.py',
      '?? report.txt',
    ]);
    await visible(review.getByText(/^None left to apply, 2 already in your folder\./), 'the review read again');
    await shotsAndAxe(world, 'review-applied');

    await review.getByRole('button', { name: 'Discard…' }).click();
    const card = await visible(review.getByRole('region', { name: 'Discard the place' }), 'the Discard card');
    await card.getByRole('button', { name: 'Discard', exact: true }).click();
    await visible(review.getByRole('status').getByText(/^Discarded the place and its branch/), 'the discard said');
    expect(await git(ws, 'branch', '--list', branch)).toBe('');
    await ui.page.keyboard.press('Escape');
    await visible(ui.page.getByText(/was discarded: this session has no folder to work in now/), 'the discarded line');
    // The person's folder keeps what was applied.
    expect(await read(ws, 'calc.py')).toBe('def add(a, b):\n    return a + b\n');
  });
});
