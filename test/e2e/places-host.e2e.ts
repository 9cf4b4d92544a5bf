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

  test('a file the person changed meanwhile is a conflict, never written; the rest goes in as a commit', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('calc-repo-2', BEFORE);
    await git(ws, 'init', '-q', '-b', 'main');
    await git(ws, 'add', '-A');
    await git(ws, 'commit', '-q', '-m', 'start');
    fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', FIX] } }] }, { text: 'Fixed it again.' });

    await ui.page.keyboard.press('Control+o');
    const open = await visible(ui.page.getByRole('dialog', { name: 'Open a folder' }), 'the Open dialog');
    await open.getByRole('combobox', { name: 'Folder' }).fill(ws);
    await open.getByRole('checkbox', { name: 'Work in a place of its own' }).check();
    await open.getByRole('combobox', { name: 'Folder' }).press('Enter');
    await visible(ui.page.getByRole('tab', { name: /calc-repo-2 · gatehouse\// }), 'the new session’s tab');
    await ui.send('Fix the calculator');
    await ui.answer(await ui.waitForCard(runCardLabel('sh')), 'Allow once');
    await visible(ui.page.getByText('Fixed it again.'), "the model's closing text");

    // The person edits calc.py in their own folder meanwhile.
    const theirs = 'def add(a, b):\n    return b + a  # mine\n';
    await fs.writeFile(path.join(ws, 'calc.py'), theirs);

    await ui.page.keyboard.press('Control+Shift+G');
    const review = await visible(
      ui.page.getByRole('dialog', { name: 'Review the place’s changes' }),
      'the review screen',
    );
    const conflict = review.getByRole('listitem').filter({ hasText: 'calc.py' });
    await visible(conflict.getByText('Conflict: you changed it too'), 'calc.py as a conflict');
    await visible(conflict.getByLabel('Merged text with conflict markers'), 'the merged text');
    expect(await conflict.getByRole('checkbox').isDisabled()).toBe(true);
    await shotsAndAxe(world, 'review-conflict');

    await review.getByRole('button', { name: 'Apply as a commit on my branch…' }).click();
    const card = await visible(review.getByRole('region', { name: 'Apply as a commit on main' }), 'the commit card');
    await visible(card.getByRole('list', { name: 'Git commands, in order' }), 'the git commands on the card');
    await card.getByRole('textbox', { name: 'Commit message' }).fill('Add the report');
    await shotsAndAxe(world, 'commit-card');
    await card.getByRole('button', { name: 'Make the commit' }).click();
    await visible(review.getByRole('status').getByText(/^Made commit [0-9a-f]{7} on your branch\.$/), 'the commit');
    expect(await read(ws, 'calc.py')).toBe(theirs);
    expect(await read(ws, 'report.txt')).toBe('total\n');
    expect((await git(ws, 'log', '-1', '--format=%s')).trim()).toBe('Add the report');
    expect((await git(ws, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('report.txt');
    // Only the person's own edit is left for git to show.
    expect((await git(ws, 'status', '--porcelain')).trim()).toBe('M calc.py');
    await ui.page.keyboard.press('Escape');

    // Settings → Places lists the place still there, with its branch and its size.
    await ui.page.keyboard.press('Control+,');
    const places = ui.page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Places' });
    const item = await visible(places.getByRole('listitem', { name: 'calc-repo-2' }), 'the place in Settings → Places');
    expect(await item.textContent()).toMatch(new RegExp(`Branch gatehouse/calc-repo-2 of ${ws}`));
    expect(await item.textContent()).toMatch(/\d+(\.\d)? (KiB|MiB)/);
    await ui.page.keyboard.press('Escape');
  });
});
