/**
 * What no snapshot can hold, and how the store goes on around it: a FIFO `.gitignore`,
 * which git opens and would wait on forever (the snapshot ends in seconds and names it);
 * FIFOs and sockets elsewhere (named, never staged); a file whose name is not UTF-8
 * (named, its making, change and deletion shown, never written or deleted by a restore).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodePath } from '../../../../../electron/core/checkpoints/path-names.js';
import { STATUS_WATCHDOG_BASE_MS } from '../../../../../electron/core/checkpoints/workspace-status.js';
import { disposeFixture, makeFixture, open, writeTree, type Fixture } from './shadow-fixture.js';

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

/** Milliseconds a piece of work took, with its answer. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

describe('a FIFO where git reads ignore rules', () => {
  it('`mkfifo .gitignore`: the snapshot holds it at once, names it, and the store goes on', async () => {
    await writeTree(f.ws, { 'a.txt': 'a\n', 'sub/b.txt': 'b\n', 'sub/.gitignore': '*.log\n', 'sub/x.log': 'x\n' });
    const store = await open(f);
    const before = await store.snapshot();
    mkfifo(path.join(f.ws, '.gitignore'));
    await fs.writeFile(path.join(f.ws, 'a.txt'), 'changed\n');

    const blocked = await timed(() => store.snapshot());
    // The root's `.gitignore` is looked at before the status: no watchdog to wait for.
    expect(blocked.ms).toBeLessThan(STATUS_WATCHDOG_BASE_MS);
    expect(blocked.value.skipped.paths).toEqual([
      { path: '.gitignore', why: 'special_file', kind: 'fifo' },
      { path: 'sub/x.log', why: 'ignored' },
    ]);
    expect(await store.changes(before.id, blocked.value.id)).toEqual([{ path: 'a.txt', change: 'modified', bytes: 8 }]);

    await fs.writeFile(path.join(f.ws, 'new.txt'), 'new\n');
    const next = await store.snapshot();
    expect(await store.changes(blocked.value.id, next.id)).toEqual([{ path: 'new.txt', change: 'added', bytes: 4 }]);

    // And a restore still takes the changes back around it.
    await store.restore(before.id, ['a.txt', 'new.txt']);
    expect(await fs.readFile(path.join(f.ws, 'a.txt'), 'utf8')).toBe('a\n');
    await expect(fs.access(path.join(f.ws, 'new.txt'))).rejects.toThrow();
    expect((await fs.lstat(path.join(f.ws, '.gitignore'))).isFIFO()).toBe(true);
  });

  it('a FIFO `.gitignore` in a subfolder, one where a tracked file was, and a socket are named', async () => {
    await writeTree(f.ws, { 'sub/deep/kept.txt': 'k\n', 'tracked.txt': 't\n' });
    const store = await open(f);
    const before = await store.snapshot();
    mkfifo(path.join(f.ws, 'sub/deep/.gitignore'));
    await fs.rm(path.join(f.ws, 'tracked.txt'));
    mkfifo(path.join(f.ws, 'tracked.txt'));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(f.ws, 'sub/app.sock'), resolve));
    try {
      await fs.writeFile(path.join(f.ws, 'sub/deep/kept.txt'), 'changed\n');
      // The watchdog, one walk and a second status: seconds, where it was the 15-minute timeout.
      const found = await timed(() => store.snapshot());
      expect(found.ms).toBeLessThan(4 * STATUS_WATCHDOG_BASE_MS);
      // Remembered: the next snapshot holds the FIFO open at once, with no watchdog to wait for.
      const again = await timed(() => store.snapshot());
      expect(again.ms).toBeLessThan(STATUS_WATCHDOG_BASE_MS);
      const after = again.value;
      expect(after.skipped.paths).toEqual([
        { path: 'sub/app.sock', why: 'special_file', kind: 'socket' },
        { path: 'sub/deep/.gitignore', why: 'special_file', kind: 'fifo' },
        { path: 'tracked.txt', why: 'special_file', kind: 'fifo' },
      ]);
      expect(await store.changes(before.id, after.id)).toEqual([
        { path: 'sub/deep/kept.txt', change: 'modified', bytes: 8 },
        { path: 'tracked.txt', change: 'deleted', bytes: 2 },
      ]);
      // The tracked file comes back in place of the FIFO.
      await store.restore(before.id, ['tracked.txt', 'sub/deep/kept.txt']);
      expect(await fs.readFile(path.join(f.ws, 'tracked.txt'), 'utf8')).toBe('t\n');
      expect(await fs.readFile(path.join(f.ws, 'sub/deep/kept.txt'), 'utf8')).toBe('k\n');
    } finally {
      server.close();
    }
  });
});

describe('a FIFO where a tracked file was', () => {
  it('is named by the snapshot that finds it, with no watchdog to wait for', async () => {
    await writeTree(f.ws, { 'tracked.txt': 't\n' });
    const store = await open(f);
    const before = await store.snapshot();
    await fs.rm(path.join(f.ws, 'tracked.txt'));
    mkfifo(path.join(f.ws, 'tracked.txt'));
    const after = await timed(() => store.snapshot());
    expect(after.ms).toBeLessThan(STATUS_WATCHDOG_BASE_MS);
    expect(after.value.skipped.paths).toEqual([{ path: 'tracked.txt', why: 'special_file', kind: 'fifo' }]);
    expect(await store.changes(before.id, after.value.id)).toEqual([
      { path: 'tracked.txt', change: 'deleted', bytes: 2 },
    ]);
  });
});

describe('a FIFO where git reads attributes', () => {
  it('stops a snapshot at once with words that name it, and once gone the store goes on', async () => {
    await writeTree(f.ws, { 'a.txt': 'a\n' });
    const store = await open(f);
    const before = await store.snapshot();
    mkfifo(path.join(f.ws, '.gitattributes'));
    await fs.writeFile(path.join(f.ws, 'a.txt'), 'changed\n');
    // git reads a folder's attributes before it hashes a file there, to its end: no holding helps.
    const refused = await timed(() => store.snapshot().catch((err: unknown) => err as Error));
    expect(refused.value).toBeInstanceOf(Error);
    expect((refused.value as Error).message).toMatch(/git waits on \.gitattributes \(a FIFO\)/);
    // The root's `.gitattributes` is looked at before staging: no watchdog to wait for.
    expect(refused.ms).toBeLessThan(STATUS_WATCHDOG_BASE_MS);

    await fs.rm(path.join(f.ws, '.gitattributes'));
    const after = await store.snapshot();
    expect(await store.changes(before.id, after.id)).toEqual([{ path: 'a.txt', change: 'modified', bytes: 8 }]);
  });
});

describe('a FIFO .gitattributes in a subfolder, once found', () => {
  it('stops a snapshot that would hash a file under it at once, and leaves the rest alone', async () => {
    await writeTree(f.ws, { 'd/x.txt': 'one\n', 'e/y.txt': 'y\n' });
    const old = new Date('2020-01-01');
    await fs.utimes(path.join(f.ws, 'd/x.txt'), old, old); // never racy: no compare reads attributes
    const store = await open(f);
    await store.snapshot();
    mkfifo(path.join(f.ws, 'd/.gitattributes'));
    await f.state.specialFiles.findAndRemember(f.ws); // as an earlier snapshot's walk would have
    await fs.writeFile(path.join(f.ws, 'e/y.txt'), 'elsewhere\n');
    const untouched = await store.snapshot();
    expect(untouched.skipped.paths).toEqual([{ path: 'd/.gitattributes', why: 'special_file', kind: 'fifo' }]);

    await fs.writeFile(path.join(f.ws, 'd/x.txt'), 'two, longer\n');
    await fs.utimes(path.join(f.ws, 'd/x.txt'), old, new Date('2021-01-01'));
    const refused = await timed(() => store.snapshot().catch((err: unknown) => err as Error));
    expect((refused.value as Error).message).toMatch(/git waits on d\/\.gitattributes \(a FIFO\)/);
    expect(refused.ms).toBeLessThan(STATUS_WATCHDOG_BASE_MS);
  });
});

describe('a file whose name is not UTF-8', () => {
  const name = 'caf\udce9.txt'; // "café.txt" in Latin-1: byte 0xE9 alone is not UTF-8
  const onDisk = () => Buffer.concat([Buffer.from(`${f.ws}/`), encodePath(name)]);

  it('is named as left out, and its making, change and deletion show in the changes', async () => {
    await writeTree(f.ws, { 'plain.txt': 'p\n' });
    const store = await open(f);
    const a = await store.snapshot();
    await fs.writeFile(onDisk(), 'latin-1 name\n');
    const b = await store.snapshot();
    expect(b.skipped.paths).toEqual([{ path: name, why: 'name_not_utf8', bytes: 13 }]);
    expect(await store.changes(a.id, b.id)).toEqual([{ path: name, change: 'added', bytes: 13 }]);
    expect(await store.diff(a.id, b.id, name)).toEqual({ diff: null, truncated: false });

    await fs.writeFile(onDisk(), 'changed, longer\n');
    const c = await store.snapshot();
    expect(await store.changes(b.id, c.id)).toEqual([{ path: name, change: 'modified', bytes: 16 }]);
    expect(await store.changes(b.id, c.id, [name])).toEqual([{ path: name, change: 'modified', bytes: 16 }]);

    await fs.rm(onDisk());
    const d = await store.snapshot();
    expect(await store.changes(c.id, d.id)).toEqual([{ path: name, change: 'deleted', bytes: 16 }]);
  });

  it('is never overwritten or deleted by a restore, which cannot bring its bytes back', async () => {
    const store = await open(f);
    await fs.writeFile(onDisk(), 'first\n');
    const a = await store.snapshot();
    await fs.writeFile(onDisk(), 'second version\n');
    expect(await store.restore(a.id, [name])).toEqual([name]);
    expect(await fs.readFile(onDisk(), 'utf8')).toBe('second version\n');
  });
});
