/**
 * The person's repository is never written and never configures us: its `.git` is byte
 * for byte the same after snapshots and restores (no ref, index, HEAD or lock), its status
 * is unchanged apart from the files restored, its info/exclude is honoured, and its config
 * (an fsmonitor, hooks) and a hostile .gitattributes run nothing and change no byte.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashTree } from './checkpoint-harness.js';
import { disposeFixture, makeFixture, open, personsGit, writeTree, type Fixture } from './shadow-fixture.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

/** A repository with a commit, a staged change, an unstaged change, an untracked file and a stash-free branch. */
async function personsRepo(ws: string): Promise<void> {
  await writeTree(ws, {
    'a.txt': 'a1\n',
    'b.txt': 'b1\n',
    'c.txt': 'c1\n',
    'tool.sh': { text: 'echo\n', mode: 0o755 },
  });
  personsGit(ws, ['init', '-q', '-b', 'main']);
  personsGit(ws, ['add', '-A']);
  personsGit(ws, ['commit', '-q', '-m', 'first']);
  await fs.writeFile(path.join(ws, 'a.txt'), 'a2 staged\n');
  personsGit(ws, ['add', 'a.txt']);
  await fs.writeFile(path.join(ws, 'b.txt'), 'b2 unstaged\n');
  await fs.writeFile(path.join(ws, 'untracked.txt'), 'u\n');
}

function gitFolderHash(ws: string): Promise<Record<string, string>> {
  return hashTree(path.join(ws, '.git'), { withGit: true });
}

describe("the person's repository", () => {
  it('keeps .git byte for byte and its status as it was, through snapshots and restores', async () => {
    await personsRepo(f.ws);
    const gitBefore = await gitFolderHash(f.ws);
    const statusBefore = personsGit(f.ws, ['status', '--porcelain']);
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(path.join(f.ws, 'c.txt'), 'c2 by a command\n');
    await fs.rm(path.join(f.ws, 'untracked.txt'));
    const b = await store.snapshot();
    expect(personsGit(f.ws, ['status', '--porcelain'])).not.toBe(statusBefore);
    const paths = (await store.changes(a.id, b.id)).map((c) => c.path);
    expect(paths).toEqual(['c.txt', 'untracked.txt']);
    await store.restore(a.id, paths);
    await store.snapshot();

    expect(await gitFolderHash(f.ws)).toEqual(gitBefore);
    expect(personsGit(f.ws, ['status', '--porcelain'])).toBe(statusBefore);
    expect(personsGit(f.ws, ['diff', '--cached', '--name-only'])).toBe('a.txt\n');
  });

  it('never lists or restores anything inside .git', async () => {
    await personsRepo(f.ws);
    const store = await open(f);
    const a = await store.snapshot();
    personsGit(f.ws, ['commit', '-q', '-m', 'second']);
    const b = await store.snapshot();
    expect((await store.changes(a.id, b.id)).filter((c) => c.path.startsWith('.git'))).toEqual([]);
    await expect(store.restore(a.id, ['.git/HEAD'])).rejects.toThrow(/inside a .git folder/);
  });

  it("honours the person's .git/info/exclude, read where it is", async () => {
    await personsRepo(f.ws);
    await fs.writeFile(path.join(f.ws, '.git/info/exclude'), 'secret-notes/\n');
    await writeTree(f.ws, { 'secret-notes/plan.txt': 'p\n' });
    const store = await open(f);
    const a = await store.snapshot();
    expect(a.skipped.paths).toContainEqual({ path: 'secret-notes/', why: 'ignored' });
    await fs.writeFile(path.join(f.ws, 'secret-notes/plan.txt'), 'changed\n');
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([]);
  });

  it("runs nothing the person's config names (fsmonitor, hooks)", async () => {
    await personsRepo(f.ws);
    const marker = path.join(f.root, 'ran');
    const script = path.join(f.root, 'spy.sh');
    await fs.writeFile(script, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    personsGit(f.ws, ['config', 'core.fsmonitor', script]);
    personsGit(f.ws, ['config', 'core.hooksPath', f.root]);
    await fs.copyFile(script, path.join(f.root, 'post-index-change'));
    await fs.chmod(path.join(f.root, 'post-index-change'), 0o755);
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(path.join(f.ws, 'c.txt'), 'c3\n');
    await store.snapshot();
    await store.restore(a.id, ['c.txt']);
    expect(existsSync(marker)).toBe(false);
    personsGit(f.ws, ['status', '--porcelain']); // the person's own git does run it: the spy works
    expect(existsSync(marker)).toBe(true);
  });
});

describe("the workspace's .gitattributes", () => {
  it('changes no byte on the way in or out (eol=crlf, text, ident, a filter, -delta)', async () => {
    const mixed = 'unix\nwindows\r\nlone\rcarriage $Id$\n';
    await writeTree(f.ws, {
      '.gitattributes': '* text eol=crlf ident filter=evil working-tree-encoding=UTF-16 -delta\n*.txt -diff\n',
      'mixed.txt': mixed,
      'lf-only.md': 'a\nb\n',
    });
    const store = await open(f);
    const a = await store.snapshot();
    const before = await hashTree(f.ws);
    await writeTree(f.ws, { 'mixed.txt': 'gone\n', 'lf-only.md': 'gone\n' });
    const b = await store.snapshot();
    const changes = await store.changes(a.id, b.id);
    expect(changes).toContainEqual({ path: 'mixed.txt', change: 'modified', bytes: 5 });
    await store.restore(a.id, ['mixed.txt', 'lf-only.md']);
    expect(await fs.readFile(path.join(f.ws, 'mixed.txt'), 'utf8')).toBe(mixed);
    expect(await hashTree(f.ws)).toEqual(before);
    // `-diff` in the workspace does not make a text file "binary" to the store.
    expect((await store.diff(a.id, b.id, 'mixed.txt')).diff).toContain('+gone');
  });
});
