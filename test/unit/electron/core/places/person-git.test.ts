/** The person's repository's filter drivers are turned off by name; one whose name cannot be turned off refuses the place. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PersonGit } from '../../../../../electron/core/places/person-git.js';
import { git, makeRepo, startPlaces, type Fixture } from './place-fixture.js';

let fx: Fixture;
let repo: string;
beforeEach(async () => {
  fx = await startPlaces();
  repo = await makeRepo(path.join(fx.root, 'proj'), { 'a.txt': 'a\n' });
});
afterEach(() => fx.close());

it('shows the commands with every filter driver blanked, dotted names included', async () => {
  git(repo, 'config', 'filter.my.odd.smudge', 'false');
  git(repo, 'config', 'filter.lfs.process', 'false');
  const shown = await new PersonGit('git', repo).shown(['write-tree']);
  for (const setting of [
    'filter.my.odd.smudge=',
    'filter.my.odd.process=',
    'filter.lfs.clean=',
    'filter.lfs.required=false',
  ]) {
    expect(shown).toContain(setting);
  }
  // The door's own settings are shown too: the card lists the command exactly as it runs.
  for (const setting of ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'protocol.allow=never']) {
    expect(shown).toContain(setting);
  }
  expect(shown.at(-1)).toBe('write-tree');
});

it('refuses a repository whose filter name holds "=" (it could not be turned off) and makes nothing', async () => {
  await fs.appendFile(path.join(repo, '.git', 'config'), '[filter "a=b"]\n\tsmudge = touch /nonexistent/x\n');
  await expect(fx.places.make('s1', repo, { title: 't' })).rejects.toThrow(/cannot be turned off/);
  await expect(fs.stat(path.join(fx.dataDir, 'places', 's1'))).rejects.toThrow();
});
