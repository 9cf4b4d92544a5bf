/**
 * A path that changes kind between snapshots (a link where a folder was, a folder where a
 * link was, in either order and through a link to a link) is recorded as what is there now,
 * and every snapshot after it still works: the session's index forgets the old entry and
 * everything it held under that path.
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
  'dir/b.txt': 'b\n',
  'link-in': { link: 'dir' },
  chain: { link: 'link-in' },
};

/** git keeps no empty folder, so a redo cannot make one again: `after` is compared without them. */
async function snapshotRestoreRoundTrip(
  change: (ws: string) => Promise<void>,
  emptyFolders: string[] = [],
): Promise<void> {
  await writeTree(f.ws, START);
  const store = await open(f);
  const before = await hashTree(f.ws);
  const a = await store.snapshot();
  await change(f.ws);
  const after = await hashTree(f.ws);
  for (const folder of emptyFolders) delete after[`${folder}/`];
  const b = await store.snapshot();
  expect(b.id).not.toBe(a.id);
  const paths = (await store.changes(a.id, b.id)).map((c) => c.path);
  await store.restore(a.id, paths);
  expect(await hashTree(f.ws)).toEqual(before);
  await store.snapshot(); // the index follows the restore
  await store.restore(b.id, paths);
  expect(await hashTree(f.ws)).toEqual(after);
  // Later snapshots still work and see later changes.
  await fs.writeFile(path.join(f.ws, 'late.txt'), 'late\n');
  const c = await store.snapshot();
  expect((await store.changes(b.id, c.id)).map((x) => x.path)).toContain('late.txt');
}

describe('a path that changes kind', () => {
  it('records a link that became an empty folder', async () => {
    await snapshotRestoreRoundTrip(
      async (ws) => {
        await fs.rm(path.join(ws, 'link-in'));
        await fs.mkdir(path.join(ws, 'link-in'));
      },
      ['link-in'],
    );
  });

  it('records a link that became a folder with files', async () => {
    await snapshotRestoreRoundTrip(async (ws) => {
      await fs.rm(path.join(ws, 'link-in'));
      await writeTree(ws, { 'link-in/b.txt': 'now a real file\n' });
    });
  });

  it('records a folder that became a link out of the workspace', async () => {
    await snapshotRestoreRoundTrip(async (ws) => {
      await fs.rm(path.join(ws, 'dir'), { recursive: true });
      await fs.symlink('/etc', path.join(ws, 'dir'));
    });
  });

  it('records a folder that became a link to another folder inside', async () => {
    await snapshotRestoreRoundTrip(async (ws) => {
      await writeTree(ws, { 'other/c.txt': 'c\n' });
      await fs.rm(path.join(ws, 'dir'), { recursive: true });
      await fs.symlink('other', path.join(ws, 'dir'));
    });
  });
});
