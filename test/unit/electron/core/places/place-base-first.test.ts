/**
 * A place's base snapshot is taken in the background after its session opens (SPEC §15);
 * everything that can change the place waits for it, or that change would be missing from
 * the review. The terminal's shell is one: it opens in the place, outside any turn.
 */
import { promises as fs, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { nodePtySpawn, type SpawnPty } from '../../../../../electron/core/terminal/pty-spawn.js';
import { startHarness, type Harness } from '../core-harness.js';
import { git, writeFiles } from './place-fixture.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * node-pty's shell, but its first change to its folder is made before it even starts, and
 * synchronously: nothing of the session runs between the shell's start and the change.
 */
const changingShell: SpawnPty = (file, args, options) => {
  writeFileSync(path.join(options.cwd, 'from-the-terminal.txt'), 'typed in the terminal\n', { flag: 'wx' });
  return nodePtySpawn(file, args, options);
};

it("a change the terminal makes at once is in the place's review: the shell starts after the base is taken", async () => {
  h = await startHarness(undefined, { base: '/var/tmp', spawnPty: changingShell });
  const repo = h.workspace;
  git(repo, 'init', '-q', '-b', 'main');
  // Enough files that the base snapshot takes a while.
  await writeFiles(repo, Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`f/${i}.txt`, `file ${i}\n`])));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');

  const session = await h.call('sessions.open', { workspace: repo, title: 'term', place: {} });
  const { terminalId } = await h.call('terminal.open', { id: session.id });
  await expect(fs.readFile(path.join(session.place!.path, 'from-the-terminal.txt'), 'utf8')).resolves.toBe(
    'typed in the terminal\n',
  );
  const review = await h.call('session.review', { id: session.id });
  expect(review.files.map((f) => [f.path, f.change])).toEqual([['from-the-terminal.txt', 'added']]);
  await h.call('terminal.close', { terminalId });
}, 60_000);
