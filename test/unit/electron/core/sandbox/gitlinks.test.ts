/**
 * A workspace's gitlinks read from its index file, without running git: on indexes that
 * the real git wrote, in each version it writes, and with .gitmodules standing in for an
 * index that cannot be read.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readGitlinks } from '../../../../../electron/core/sandbox/gitlinks.js';
import { gitlinksOfIndex } from '../../../../../electron/core/sandbox/index-file.js';

const exec = promisify(execFile);
const SHA1 = '1111111111111111111111111111111111111111';
const SHA256 = 'a'.repeat(64);

let ws: string;
beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-gitlinks-')));
});
afterEach(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

const git = async (...args: string[]) =>
  (await exec('git', args, { cwd: ws, env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: ws } })).stdout;

/** A repository with files around the gitlinks, so v4's shared prefixes and v3's flags come into play. */
async function repoWithGitlinks(sha = SHA1, init: string[] = []): Promise<void> {
  await git('init', '-q', ...init);
  for (const name of ['a.txt', 'vendor/aa.txt', 'vendor/lib-docs/x.txt', 'z/deep/er/file.txt']) {
    await fs.mkdir(path.dirname(path.join(ws, name)), { recursive: true });
    await fs.writeFile(path.join(ws, name), name);
  }
  await git('add', '.');
  await git('update-index', '--add', '--cacheinfo', `160000,${sha},vendor/lib`);
  await git('update-index', '--add', '--cacheinfo', `160000,${sha},z/deep/sub module`);
}

const fromGit = async () =>
  (await git('ls-files', '--stage'))
    .split('\n')
    .filter((l) => l.startsWith('160000 '))
    .map((l) => l.slice(l.indexOf('\t') + 1))
    .sort();

describe('the gitlinks of an index the real git wrote', () => {
  it.each([2, 3, 4])('version %i: the same as git ls-files says', async (version) => {
    await repoWithGitlinks();
    // An intent-to-add entry carries the extended flags (version 3 and later).
    if (version >= 3) {
      await fs.writeFile(path.join(ws, 'vendor', 'later.txt'), 'x');
      await git('add', '-N', 'vendor/later.txt');
    }
    await git('update-index', '--index-version', String(version));
    const bytes = await fs.readFile(path.join(ws, '.git', 'index'));
    expect(bytes.readUInt32BE(4)).toBe(version);
    expect(gitlinksOfIndex(bytes, 20)?.paths.sort()).toEqual(await fromGit());
    expect((await readGitlinks(ws)).sort()).toEqual(['vendor/lib', 'z/deep/sub module']);
  });

  it('in a SHA-256 repository', async () => {
    await repoWithGitlinks(SHA256, ['--object-format=sha256']);
    expect((await readGitlinks(ws)).sort()).toEqual(await fromGit());
  });

  it('in a split index, whose entries are mostly in the shared index', async () => {
    await repoWithGitlinks();
    await git('update-index', '--split-index');
    await git('update-index', '--add', '--cacheinfo', `160000,${SHA1},later`);
    expect((await readGitlinks(ws)).sort()).toEqual(await fromGit());
    expect(await fromGit()).toContain('later');
  });

  it('sees a gitlink added after it was last read (the cache follows the index)', async () => {
    await repoWithGitlinks();
    expect((await readGitlinks(ws)).sort()).toEqual(['vendor/lib', 'z/deep/sub module']);
    await git('update-index', '--add', '--cacheinfo', `160000,${SHA1},planted`);
    expect((await readGitlinks(ws)).sort()).toEqual(['planted', 'vendor/lib', 'z/deep/sub module']);
  });

  it('none without an index', async () => {
    await git('init', '-q');
    expect(await readGitlinks(ws)).toEqual([]);
  });
});

describe('an index it cannot read', () => {
  beforeEach(async () => {
    await repoWithGitlinks();
    await fs.writeFile(path.join(ws, '.gitmodules'), '[submodule "m"]\n\tpath = from/gitmodules\n');
  });

  it.each([
    ['a bad signature', (b: Buffer) => b.write('XXXX', 0)],
    ['an unknown version', (b: Buffer) => b.writeUInt32BE(9, 4)],
    ['more entries than the file holds', (b: Buffer) => b.writeUInt32BE(1_000_000, 8)],
  ])('%s: the paths .gitmodules names stand in', async (_what, spoil) => {
    const file = path.join(ws, '.git', 'index');
    const bytes = await fs.readFile(file);
    spoil(bytes);
    await fs.writeFile(file, bytes);
    expect(gitlinksOfIndex(bytes, 20)).toBeNull();
    expect(await readGitlinks(ws)).toEqual(['from/gitmodules']);
  });

  it('cut short: .gitmodules stands in', async () => {
    const file = path.join(ws, '.git', 'index');
    const bytes = await fs.readFile(file);
    await fs.writeFile(file, bytes.subarray(0, 100));
    expect(await readGitlinks(ws)).toEqual(['from/gitmodules']);
  });

  it('a v4 path that drops more than the previous one had', async () => {
    await git('update-index', '--index-version', '4');
    const bytes = await fs.readFile(path.join(ws, '.git', 'index'));
    // The first entry's prefix length: right after its flags (no extended flags here).
    bytes[12 + 40 + 20 + 2] = 0x7f;
    expect(gitlinksOfIndex(bytes, 20)).toBeNull();
  });
});
