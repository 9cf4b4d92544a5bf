/**
 * Several sessions on one workspace, and the store's limit: each session has its own index
 * (concurrent snapshots never fight over a lock), the prune drops the oldest snapshots
 * first and `has` says which went, and every session's last snapshot and index survive it.
 */
import { randomBytes } from 'node:crypto';
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

describe('two sessions on one workspace', () => {
  it('snapshot at the same time, each with its own index, and agree on the tree', async () => {
    await writeTree(f.ws, { 'shared.txt': '0\n' });
    const one = await open(f, 'one');
    const two = await open(f, 'two');
    for (let round = 1; round <= 8; round++) {
      await writeTree(f.ws, { 'shared.txt': `${round}\n`, [`r${round}/file.txt`]: `${round}\n` });
      const [a, b] = await Promise.all([one.snapshot(), two.snapshot()]);
      expect(await one.changes(a.id, b.id)).toEqual([]);
    }
    const worktrees = path.join(f.storeDir, 'repo', 'worktrees');
    expect((await fs.readdir(worktrees)).sort()).toEqual(['one', 'two']);
    expect(existsSync(path.join(worktrees, 'one', 'index'))).toBe(true);
    expect(existsSync(path.join(worktrees, 'two', 'index'))).toBe(true);
  });

  it('two openers of one index take turns (no index.lock clash)', async () => {
    await writeTree(f.ws, { 'a.txt': 'a\n' });
    const first = await open(f, 'same');
    const second = await open(f, 'same');
    const all = await Promise.all([first.snapshot(), second.snapshot(), first.snapshot(), second.snapshot()]);
    expect(new Set(all.map((s) => s.id)).size).toBe(1);
  });
});

/** Snapshots that each hold one incompressible 64 KiB file of their own: each adds its bytes to the store. */
async function distinctSnapshots(store: Awaited<ReturnType<typeof open>>, ws: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    await fs.rm(path.join(ws, `blob-${i - 1}.bin`), { force: true });
    await fs.writeFile(path.join(ws, `blob-${i}.bin`), randomBytes(64 * 1024));
    ids.push((await store.snapshot()).id);
  }
  return ids;
}

describe('the prune', () => {
  it('drops the oldest snapshots first until the store fits, and has() says which went', async () => {
    const store = await open(f);
    const ids = await distinctSnapshots(store, f.ws, 12);
    const before = await store.size();
    const limit = Math.floor(before / 2);
    const { removed, bytes } = await store.prune(limit);
    expect(bytes).toBeLessThanOrEqual(limit);
    expect(await store.size()).toBe(bytes);
    const present = await Promise.all(ids.map((id) => store.has(id)));
    const firstKept = present.indexOf(true);
    expect(removed).toBe(firstKept);
    expect(removed).toBeGreaterThan(0);
    expect(present.slice(firstKept).every(Boolean)).toBe(true); // no gap: oldest first
    const last = ids.at(-1) as string;
    expect(await store.changes(last, last)).toEqual([]);
    const pruned = /is not in the checkpoint store \(pruned, or never taken\)/;
    await expect(store.restore(ids[0] as string, ['blob-0.bin'])).rejects.toThrow(pruned);
    await expect(store.changes(ids[0] as string, last)).rejects.toThrow(pruned);
  });

  it("keeps every session's last snapshot and index, so each goes on snapshotting and restoring", async () => {
    await writeTree(f.ws, { 'early.txt': 'early\n' });
    const other = await open(f, 'other');
    const otherLast = await other.snapshot();
    const store = await open(f, 'mine');
    const ids = await distinctSnapshots(store, f.ws, 6);
    const { bytes } = await store.prune(1);
    expect(bytes).toBeGreaterThan(1); // what is kept cannot go
    expect(await store.has(ids[0] as string)).toBe(false);
    expect(await store.has(ids.at(-1) as string)).toBe(true);
    expect(await store.has(otherLast.id)).toBe(true);

    await fs.writeFile(path.join(f.ws, 'early.txt'), 'later\n');
    const otherNext = await other.snapshot();
    expect(await other.changes(otherLast.id, otherNext.id)).toContainEqual({
      path: 'early.txt',
      change: 'modified',
      bytes: 6,
    });
    await other.restore(otherLast.id, ['early.txt']);
    expect(await fs.readFile(path.join(f.ws, 'early.txt'), 'utf8')).toBe('early\n');
    const mine = await store.snapshot();
    expect(await store.has(mine.id)).toBe(true);
  });

  it('does nothing to a store under its limit', async () => {
    const store = await open(f);
    const ids = await distinctSnapshots(store, f.ws, 3);
    expect(await store.prune(1024 * 1024 * 1024)).toEqual({ removed: 0, bytes: await store.size() });
    expect(await Promise.all(ids.map((id) => store.has(id)))).toEqual([true, true, true]);
  });
});
