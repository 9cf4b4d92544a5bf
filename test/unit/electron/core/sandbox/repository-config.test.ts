/**
 * What a repository's config names that runs code later (`core.hooksPath`, the files it
 * includes), read through the app's git door as the person's git reads it: never the
 * door's own settings, the person's relative global hooks folder too, and asked again when
 * an included file changes. Reading it runs nothing the config plants.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readHooksPath, readRepositoryConfig } from '../../../../../electron/core/sandbox/repository-config.js';

const exec = promisify(execFile);

let root: string;
let ws: string;
let home: string;
const savedHome = process.env.HOME;
const savedXdg = process.env.XDG_CONFIG_HOME;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-repo-config-'));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(home);
  await fs.mkdir(ws);
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  await git('init', '-q');
});
afterEach(async () => {
  process.env.HOME = savedHome;
  if (savedXdg !== undefined) process.env.XDG_CONFIG_HOME = savedXdg;
  await fs.rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  exec('git', args, { cwd: ws, env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } });

describe("a repository's config, read through the git door", () => {
  it('no hooks folder when none is set (never the door’s own /dev/null)', async () => {
    expect(await readHooksPath(ws)).toBeNull();
  });

  it('the hooks folder set in a file the config includes, and that file', async () => {
    await fs.writeFile(path.join(ws, 'team.gitconfig'), '[core]\n\thooksPath = .husky/_\n');
    await git('config', 'include.path', '../team.gitconfig');
    expect(await readRepositoryConfig(ws)).toEqual({
      hooksPath: '.husky/_',
      includes: [path.join(ws, 'team.gitconfig')],
    });
  });

  it('asked again when an included file changes', async () => {
    await fs.writeFile(path.join(ws, 'team.gitconfig'), '[core]\n\tautocrlf = false\n');
    await git('config', 'include.path', '../team.gitconfig');
    expect(await readHooksPath(ws)).toBeNull();
    await fs.writeFile(path.join(ws, 'team.gitconfig'), '[core]\n\thooksPath = githooks\n');
    expect(await readHooksPath(ws)).toBe('githooks');
  });

  it("the person's global hooks folder when the repository sets none (relative: a folder in every workspace)", async () => {
    await fs.writeFile(path.join(home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
    expect(await readHooksPath(ws)).toBe('.githooks');
    await git('config', 'core.hooksPath', 'local-hooks');
    expect(await readHooksPath(ws)).toBe('local-hooks');
  });

  it('runs nothing the config plants while it reads', async () => {
    const marker = path.join(root, 'RAN');
    await fs.writeFile(path.join(ws, 'a.txt'), 'a');
    await git('add', 'a.txt');
    await git('config', 'core.fsmonitor', `touch ${marker}; false`);
    await git('config', 'core.hooksPath', 'hooks');
    expect(await readHooksPath(ws)).toBe('hooks');
    await expect(fs.access(marker)).rejects.toThrow();
  });
});
