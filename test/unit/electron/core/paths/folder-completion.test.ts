/**
 * Folder completion offers folders only, bounded and sorted, and never fails on a folder
 * it cannot read or a path that is not there yet.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completeFolders, FOLDER_COMPLETIONS_MAX } from '../../../../../electron/core/paths/folder-completion.js';

let root: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-complete-')));
});
afterEach(async () => {
  await fs.chmod(path.join(root, 'locked'), 0o755).catch(() => {});
  await fs.rm(root, { recursive: true, force: true });
});

describe('completeFolders', () => {
  it('offers folders and links to folders whose name starts with the last segment, never files', async () => {
    await fs.mkdir(path.join(root, 'src'));
    await fs.mkdir(path.join(root, 'scripts'));
    await fs.mkdir(path.join(root, 'docs'));
    await fs.writeFile(path.join(root, 'setup.sh'), 'x');
    await fs.symlink(path.join(root, 'docs'), path.join(root, 'shortcut'));
    await fs.symlink(path.join(root, 'setup.sh'), path.join(root, 'script-link'));
    await fs.symlink(path.join(root, 'gone'), path.join(root, 'stale'));
    expect(await completeFolders(`${root}/s`, '/home/x')).toEqual(
      ['scripts', 'shortcut', 'src'].map((n) => path.join(root, n)),
    );
  });

  it('lists every visible folder after a trailing slash, and hidden ones only when the segment starts with a dot', async () => {
    await fs.mkdir(path.join(root, 'a'));
    await fs.mkdir(path.join(root, '.git'));
    expect(await completeFolders(`${root}/`, '/home/x')).toEqual([path.join(root, 'a')]);
    expect(await completeFolders(`${root}/.`, '/home/x')).toEqual([path.join(root, '.git')]);
  });

  it('expands ~ and ~/ to the home folder', async () => {
    await fs.mkdir(path.join(root, 'work'));
    expect(await completeFolders('~', root)).toEqual([path.join(root, 'work')]);
    expect(await completeFolders('~/w', root)).toEqual([path.join(root, 'work')]);
  });

  it(`returns at most ${FOLDER_COMPLETIONS_MAX}, sorted`, async () => {
    await Promise.all(
      Array.from({ length: 130 }, (_, i) => fs.mkdir(path.join(root, `d${String(i).padStart(3, '0')}`))),
    );
    const folders = await completeFolders(`${root}/d`, '/home/x');
    expect(folders).toHaveLength(FOLDER_COMPLETIONS_MAX);
    expect(folders[0]).toBe(path.join(root, 'd000'));
    expect(folders.at(-1)).toBe(path.join(root, 'd099'));
  });

  it('offers nothing under a path that does not exist or is a file', async () => {
    await fs.writeFile(path.join(root, 'file'), 'x');
    expect(await completeFolders(`${root}/missing/a`, '/home/x')).toEqual([]);
    expect(await completeFolders(`${root}/file/a`, '/home/x')).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('says plainly when a folder cannot be read', async () => {
    await fs.mkdir(path.join(root, 'locked'));
    await fs.chmod(path.join(root, 'locked'), 0o000);
    await expect(completeFolders(`${root}/locked/`, '/home/x')).rejects.toThrow(
      `cannot read ${path.join(root, 'locked')}: permission denied`,
    );
  });

  it('refuses a relative path', async () => {
    await expect(completeFolders('src', root)).rejects.toThrow('type an absolute path');
  });
});
