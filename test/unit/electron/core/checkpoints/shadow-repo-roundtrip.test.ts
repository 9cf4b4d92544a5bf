/**
 * The shadow repository keeps and gives back the workspace byte for byte: file contents,
 * the exec bit, links as links, folders made and emptied, in a workspace that is not a
 * git repository (the person's own repository is shadow-repo-persons-git.test.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashTree } from './checkpoint-harness.js';
import { disposeFixture, makeFixture, open, writeTree, type Fixture } from './shadow-fixture.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

const START = {
  'README.md': '# hello\n',
  'src/main.ts': 'export const main = 1;\n',
  'src/util/strings.ts': 'export const s = "x";\n',
  'scripts/build.sh': { text: '#!/bin/sh\necho build\n', mode: 0o755 },
  'scripts/plain.sh': { text: '#!/bin/sh\necho plain\n', mode: 0o644 },
  'docs/old.md': 'to be deleted\n',
  'link-to-readme': { link: 'README.md' },
  'link-dangling': { link: 'nowhere/at/all' },
  'becomes-link.txt': 'a file that a link replaces\n',
  'binary.bin': '\x00\x01\x02\xff binary',
};

/** Every kind of change a command can make. */
async function changeEverything(ws: string): Promise<void> {
  await fs.writeFile(path.join(ws, 'src/main.ts'), 'export const main = 2;\n');
  await fs.rm(path.join(ws, 'docs'), { recursive: true }); // git keeps no empty folder, so neither does a restore
  await writeTree(ws, { 'src/new/deep/file.ts': 'new\n', 'added.txt': 'added\n' });
  await fs.chmod(path.join(ws, 'scripts/plain.sh'), 0o755);
  await fs.chmod(path.join(ws, 'scripts/build.sh'), 0o644);
  await fs.rm(path.join(ws, 'link-to-readme'));
  await fs.symlink('src/main.ts', path.join(ws, 'link-to-readme'));
  await fs.rm(path.join(ws, 'becomes-link.txt'));
  await fs.symlink('README.md', path.join(ws, 'becomes-link.txt'));
  await fs.writeFile(path.join(ws, 'binary.bin'), Buffer.from([0, 9, 8, 7, 0xfe]));
}

describe('a snapshot and its restore', () => {
  it('names every change and brings the workspace back byte for byte, modes and links included', async () => {
    await writeTree(f.ws, START);
    const store = await open(f);
    const start = await hashTree(f.ws);
    const a = await store.snapshot();
    await changeEverything(f.ws);
    const changed = await hashTree(f.ws);
    const b = await store.snapshot();

    const changes = await store.changes(a.id, b.id);
    expect(changes).toEqual([
      { path: 'added.txt', change: 'added', bytes: 6 },
      { path: 'becomes-link.txt', change: 'modified', bytes: 'README.md'.length },
      { path: 'binary.bin', change: 'modified', bytes: 5 },
      { path: 'docs/old.md', change: 'deleted', bytes: 14 },
      { path: 'link-to-readme', change: 'modified', bytes: 'src/main.ts'.length },
      { path: 'scripts/build.sh', change: 'modified', bytes: 21 },
      { path: 'scripts/plain.sh', change: 'modified', bytes: 21 },
      { path: 'src/main.ts', change: 'modified', bytes: 23 },
      { path: 'src/new/deep/file.ts', change: 'added', bytes: 4 },
    ]);

    expect(
      await store.restore(
        a.id,
        changes.map((c) => c.path),
      ),
    ).toEqual([]);
    expect(await hashTree(f.ws)).toEqual(start); // src/new/deep went with its file
    await store.restore(
      b.id,
      changes.map((c) => c.path),
    );
    expect(await hashTree(f.ws)).toEqual(changed);
  });

  it('restores only the paths it is given', async () => {
    await writeTree(f.ws, START);
    const store = await open(f);
    const a = await store.snapshot();
    await changeEverything(f.ws);
    await store.snapshot();
    await store.restore(a.id, ['src/main.ts', 'docs/old.md']);
    expect(await fs.readFile(path.join(f.ws, 'src/main.ts'), 'utf8')).toBe('export const main = 1;\n');
    expect(await fs.readFile(path.join(f.ws, 'docs/old.md'), 'utf8')).toBe('to be deleted\n');
    expect(await fs.readFile(path.join(f.ws, 'added.txt'), 'utf8')).toBe('added\n');
    expect(await fs.readlink(path.join(f.ws, 'link-to-readme'))).toBe('src/main.ts');
  });

  it('answers the same snapshot while nothing changed, and a new one after a change', async () => {
    await writeTree(f.ws, START);
    const store = await open(f);
    const a = await store.snapshot();
    expect((await store.snapshot()).id).toBe(a.id);
    await fs.appendFile(path.join(f.ws, 'README.md'), 'more\n');
    const b = await store.snapshot();
    expect(b.id).not.toBe(a.id);
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'README.md', change: 'modified', bytes: 13 }]);
  });

  it('sees a change that keeps the size and the second (content, not only stat)', async () => {
    await writeTree(f.ws, { 'same-size.txt': 'aaaa\n' });
    const store = await open(f);
    const a = await store.snapshot();
    const stat = await fs.stat(path.join(f.ws, 'same-size.txt'));
    await fs.writeFile(path.join(f.ws, 'same-size.txt'), 'bbbb\n');
    await fs.utimes(path.join(f.ws, 'same-size.txt'), stat.atime, stat.mtime);
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'same-size.txt', change: 'modified', bytes: 5 }]);
  });

  it('works on an empty workspace, and names paths with spaces and unicode as they are', async () => {
    const store = await open(f);
    const empty = await store.snapshot();
    expect(empty.skipped).toEqual({ paths: [], more: 0 });
    await writeTree(f.ws, { 'with space/naïve ☃.txt': 'x\n', 'tab\there.txt': 'y\n', '*': 'star\n' });
    const full = await store.snapshot();
    expect((await store.changes(empty.id, full.id)).map((c) => c.path)).toEqual([
      '*',
      'tab\there.txt',
      'with space/naïve ☃.txt',
    ]);
    await store.restore(empty.id, ['*', 'tab\there.txt', 'with space/naïve ☃.txt']);
    expect(await fs.readdir(f.ws)).toEqual([]);
  });

  it('filters changes to the given paths, literally (a path named * is not a pattern)', async () => {
    await writeTree(f.ws, { '*': '1\n', 'a.txt': '1\n', 'b.txt': '1\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await writeTree(f.ws, { '*': '2\n', 'a.txt': '2\n', 'b.txt': '2\n' });
    const b = await store.snapshot();
    expect((await store.changes(a.id, b.id, ['*'])).map((c) => c.path)).toEqual(['*']);
    expect((await store.changes(a.id, b.id, ['b.txt', 'not-there'])).map((c) => c.path)).toEqual(['b.txt']);
    expect(await store.changes(a.id, b.id, [])).toEqual([]);
  });

  it('replaces a folder by a file and back when both sides are restored together', async () => {
    await writeTree(f.ws, { 'thing/inner.txt': 'inner\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.rm(path.join(f.ws, 'thing'), { recursive: true });
    await fs.writeFile(path.join(f.ws, 'thing'), 'now a file\n');
    const b = await store.snapshot();
    const paths = (await store.changes(a.id, b.id)).map((c) => c.path);
    expect(paths).toEqual(['thing', 'thing/inner.txt']);
    await store.restore(a.id, paths);
    expect(await fs.readFile(path.join(f.ws, 'thing/inner.txt'), 'utf8')).toBe('inner\n');
    await store.restore(b.id, paths);
    expect(await fs.readFile(path.join(f.ws, 'thing'), 'utf8')).toBe('now a file\n');
  });

  it('keeps a snapshot readable from a second opener of the store (another session)', async () => {
    await writeTree(f.ws, START);
    const first = await open(f, 'one');
    const a = await first.snapshot();
    await changeEverything(f.ws);
    const second = await open(f, 'two');
    const b = await second.snapshot();
    expect((await second.changes(a.id, b.id)).length).toBe(9);
    expect(await second.has(a.id)).toBe(true);
  });

  it('opens the store of a workspace that is gone, to size and prune it, and says why it cannot snapshot', async () => {
    await writeTree(f.ws, START);
    const a = await (await open(f)).snapshot();
    await fs.rm(f.ws, { recursive: true });
    const store = await open(f, 'settings');
    expect(await store.size()).toBeGreaterThan(0);
    expect(await store.has(a.id)).toBe(true);
    await expect(store.snapshot()).rejects.toThrow(/the workspace .* is not there \(moved or deleted\?\)/);
    await expect(store.restore(a.id, ['README.md'])).rejects.toThrow(/is not there/);
  });
});
