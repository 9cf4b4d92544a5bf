/**
 * Hostile input to the store: paths that climb out, are absolute, or reach into a `.git`;
 * ids that are revision expressions or options; links that would lead a restore out of
 * the workspace; a folder or a link standing where a restore would write.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { disposeFixture, makeFixture, open, writeTree, type Fixture } from './shadow-fixture.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

describe('paths and ids from outside', () => {
  const refused: Array<[string, RegExp]> = [
    ['../outside.txt', /climbs out/],
    ['a/../../outside.txt', /climbs out/],
    ['/etc/passwd', /absolute/],
    ['C:/Windows/win.ini', /absolute/],
    ['.git/config', /inside a .git folder/],
    ['sub/.GIT/config', /inside a .git folder/],
    ['sub/.git./hooks/pre-commit', /inside a .git folder/],
    ['', /empty/],
    ['a//b', /plain form/],
    ['./a', /plain form/],
    ['a\0b', /NUL/],
  ];

  it.each(refused)('refuses %j with a clear error, in restore, changes and diff', async (bad, why) => {
    await writeTree(f.ws, { 'a.txt': 'a\n' });
    const store = await open(f);
    const { id } = await store.snapshot();
    await expect(store.restore(id, ['a.txt', bad])).rejects.toThrow(why);
    await expect(store.changes(id, id, [bad])).rejects.toThrow(why);
    await expect(store.diff(id, id, bad)).rejects.toThrow(why);
    expect(await fs.readFile(path.join(f.ws, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('refuses ids that are not object names (a revision expression, an option)', async () => {
    const store = await open(f);
    const { id } = await store.snapshot();
    for (const bad of ['HEAD', `${id}~1`, '--all', id.slice(0, 12), id.toUpperCase()]) {
      await expect(store.restore(bad, ['a.txt'])).rejects.toThrow(/not a snapshot id/);
      await expect(store.changes(bad, id)).rejects.toThrow(/not a snapshot id/);
      expect(await store.has(bad)).toBe(false);
    }
    expect(await store.has(id)).toBe(true);
    expect(await store.has('0'.repeat(40))).toBe(false);
  });
});

describe('links on the way', () => {
  it('never deletes through a linked folder that points out of the workspace', async () => {
    const outside = path.join(f.root, 'outside');
    await writeTree(outside, { 'precious.txt': 'keep me\n' });
    const store = await open(f);
    const empty = await store.snapshot();
    await fs.symlink(outside, path.join(f.ws, 'escape'));
    await store.restore(empty.id, ['escape/precious.txt']);
    expect(await fs.readFile(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me\n');
    await store.restore(empty.id, ['escape']); // the link itself is a path of the workspace: it goes
    expect(existsSync(path.join(f.ws, 'escape'))).toBe(false);
    expect(await fs.readFile(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses to write through a folder that became a link, and writes nothing', async () => {
    const outside = path.join(f.root, 'outside');
    await fs.mkdir(outside);
    await writeTree(f.ws, { 'conf/settings.json': '{"a":1}\n', 'top.txt': 'top\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.rm(path.join(f.ws, 'conf'), { recursive: true });
    await fs.symlink(outside, path.join(f.ws, 'conf'));
    await fs.writeFile(path.join(f.ws, 'top.txt'), 'changed\n');
    await expect(store.restore(a.id, ['top.txt', 'conf/settings.json'])).rejects.toThrow(
      /cannot restore conf\/settings.json: conf is a link now/,
    );
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await fs.readFile(path.join(f.ws, 'top.txt'), 'utf8')).toBe('changed\n');
  });

  it('replaces a link at the restored path itself, without following it', async () => {
    const outside = path.join(f.root, 'outside.txt');
    await fs.writeFile(outside, 'outside\n');
    await writeTree(f.ws, { 'file.txt': 'mine\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.rm(path.join(f.ws, 'file.txt'));
    await fs.symlink(outside, path.join(f.ws, 'file.txt'));
    await store.restore(a.id, ['file.txt']);
    expect((await fs.lstat(path.join(f.ws, 'file.txt'))).isFile()).toBe(true);
    expect(await fs.readFile(path.join(f.ws, 'file.txt'), 'utf8')).toBe('mine\n');
    expect(await fs.readFile(outside, 'utf8')).toBe('outside\n');
  });

  it('refuses to replace a folder standing where a file goes (git would delete it whole)', async () => {
    await writeTree(f.ws, { 'notes.txt': 'notes\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.rm(path.join(f.ws, 'notes.txt'));
    await writeTree(f.ws, { 'notes.txt/inner.txt': 'the person put a folder here\n' });
    await expect(store.restore(a.id, ['notes.txt'])).rejects.toThrow(/a folder is there now/);
    expect(await fs.readFile(path.join(f.ws, 'notes.txt/inner.txt'), 'utf8')).toContain('folder');
  });

  it('never deletes a folder, even one the snapshot lacks', async () => {
    const store = await open(f);
    const empty = await store.snapshot();
    await writeTree(f.ws, { 'made/inside.txt': 'x\n' });
    await store.restore(empty.id, ['made']);
    expect(await fs.readFile(path.join(f.ws, 'made/inside.txt'), 'utf8')).toBe('x\n');
  });
});
