/**
 * Whether checkpoints can run: the system git on PATH and its version, or why not and
 * what to do, in words for every place that would offer undo.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findGit } from '../../../../../electron/core/checkpoints/find-git.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function fakeGit(script: string): Promise<string> {
  dir = await fs.mkdtemp('/var/tmp/gatehouse-find-git-');
  await fs.writeFile(path.join(dir, 'git'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

describe('findGit', () => {
  it('finds the system git and its version', async () => {
    const found = await findGit();
    expect(found).toMatchObject({ ok: true, git: expect.stringMatching(/\/git$/) });
    if (found.ok) expect(found.version).toMatch(/^\d+\.\d+/);
  });

  it('says git is not installed, and how to fix it, when PATH has none', async () => {
    const found = await findGit({ PATH: '/nonexistent-bin' });
    expect(found).toEqual({
      ok: false,
      reason: 'git is not installed',
      fix: 'install git (e.g. apt install git, or Xcode command line tools on macOS) and restart Gatehouse',
    });
  });

  it('refuses a git too old for the store, and one that does not run', async () => {
    const old = await fakeGit('echo "git version 2.9.1"');
    expect(await findGit({ PATH: old })).toMatchObject({ ok: false, reason: 'git 2.9 is older than 2.20' });
    await fs.writeFile(path.join(old, 'git'), '#!/bin/sh\nexit 3\n');
    expect(await findGit({ PATH: `${old}:/usr/local/nothing` })).toMatchObject({
      ok: false,
      reason: `git at ${old}/git does not run`,
    });
  });

  it('ignores a relative PATH entry (a git planted in the current folder)', async () => {
    expect(await findGit({ PATH: '.' })).toMatchObject({ ok: false, reason: 'git is not installed' });
  });
});
