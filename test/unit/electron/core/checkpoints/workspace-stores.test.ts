/**
 * Each WorkspaceStores (each core) owns what its stores share: two of them in one process,
 * even on one data folder, share no lock, no memory and no packing; once disposed, one
 * opens no store and starts no packing.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeDirFor } from '../../../../../electron/core/checkpoints/shadow-repo.js';
import { STORES_DISPOSED } from '../../../../../electron/core/checkpoints/repack-policy.js';
import {
  WorkspaceStores,
  type WorkspaceStoresDeps,
} from '../../../../../electron/core/checkpoints/workspace-stores.js';
import type { Sandbox } from '../../../../../electron/core/sandbox/sandbox.js';
import { fakeShadow, noteSnapshots } from './repack-fake-shadow.js';

let root: string;
let ws: string;
let made: WorkspaceStores[];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-stores-'));
  ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  made = [];
});
afterEach(async () => {
  await Promise.all(made.map((s) => s.dispose()));
  await fs.rm(root, { recursive: true, force: true });
});

/** A core's stores over the shared data folder; no restore runs here, so no sandbox is needed. */
function stores(deps: Partial<WorkspaceStoresDeps> = {}): WorkspaceStores {
  const s = new WorkspaceStores({
    dataDir: path.join(root, 'data'),
    limitBytes: () => Number.MAX_SAFE_INTEGER,
    sandbox: {} as Sandbox,
    ...deps,
  });
  made.push(s);
  return s;
}

/** A promise and its resolve, for work that holds a lock until the test lets go. */
function gate(): { held: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('two WorkspaceStores in one process', () => {
  it('share no store lock: one core’s prune does not hold the other’s snapshots', async () => {
    const [a, b] = [stores(), stores()];
    const storeDir = path.join(root, 'data', 'checkpoints', 'same');
    const pruning = gate();
    const prune = a.state.locks.of(storeDir).exclusive(() => pruning.held);
    let aRead = false;
    const aReading = a.state.locks.of(storeDir).shared(async () => void (aRead = true));
    expect(await b.state.locks.of(storeDir).shared(async () => 'b read')).toBe('b read');
    await settle();
    expect(aRead).toBe(false); // its own lock still holds it
    pruning.open();
    await Promise.all([prune, aReading]);
    expect(aRead).toBe(true);
  });

  it('share no turns: one core’s work on a session index does not queue the other’s', async () => {
    const [a, b] = [stores(), stores()];
    const running = gate();
    const aWork = a.state.locks.inTurn('worktree', () => running.held);
    expect(await b.state.locks.inTurn('worktree', async () => 'b ran')).toBe('b ran');
    running.open();
    await aWork;
  });

  it('share no memory of a workspace’s special files', async () => {
    const [a, b] = [stores(), stores()];
    execFileSync('mkfifo', [path.join(ws, '.gitignore')]);
    await a.state.specialFiles.findAndRemember(ws);
    expect(a.state.specialFiles.of(ws)).toEqual([{ path: '.gitignore', kind: 'fifo' }]);
    expect(b.state.specialFiles.of(ws)).toEqual([]);
  });

  it('share no memory of a session’s last snapshot', async () => {
    const [a, b] = [stores(), stores()];
    await fs.writeFile(path.join(ws, 'a.txt'), 'a\n');
    const store = await a.access('session-1', ws).open();
    if (!('snapshot' in store)) throw new Error(`these tests need git: ${store.unavailable}`);
    await store.snapshot();
    expect(a.state.lastSnapshots.size).toBe(1);
    expect(b.state.lastSnapshots.size).toBe(0);
  });

  it('count their stores’ writes apart: neither packs for the other’s snapshots', async () => {
    const [a, b] = [stores(), stores()];
    const fake = fakeShadow(path.join(root, 'data', 'checkpoints', 'same'));
    noteSnapshots((...n) => a.state.repacks.noteWrites(...n), fake.shadow, 19);
    noteSnapshots((...n) => b.state.repacks.noteWrites(...n), fake.shadow, 19);
    const storeDir = fake.shadow.layout.storeDir;
    await Promise.all([a.state.repacks.tidied(storeDir), b.state.repacks.tidied(storeDir)]);
    expect(fake.commands).toEqual([]);
    noteSnapshots((...n) => a.state.repacks.noteWrites(...n), fake.shadow, 1);
    await a.state.repacks.tidied(storeDir);
    expect(fake.commands).toEqual(['count-objects -v']); // its own twentieth
  });
});

describe('a disposed WorkspaceStores', () => {
  it('opens no store, in words', async () => {
    const a = stores();
    await a.dispose();
    await expect(a.access('session-1', ws).open()).rejects.toThrow(STORES_DISPOSED);
  });

  it('starts no packing of its stores', async () => {
    const a = stores();
    const fake = fakeShadow(path.join(root, 'data', 'checkpoints', 'same'));
    await a.dispose();
    noteSnapshots((...n) => a.state.repacks.noteWrites(...n), fake.shadow, 20);
    await a.state.repacks.tidied(fake.shadow.layout.storeDir);
    expect(fake.commands).toEqual([]);
  });

  it('takes no checkpoint’s count after, and says nothing of it', async () => {
    const onUnexpected = vi.fn();
    const a = stores({ onUnexpected });
    await a.dispose();
    (a.access('session-1', ws).checkpointed as () => void)();
    await settle();
    expect(onUnexpected).not.toHaveBeenCalled();
  });

  it('starts no prune for a checkpoint counted just before it', async () => {
    const limitBytes = vi.fn(() => 0);
    const a = stores({ limitBytes });
    const access = a.access('session-1', ws);
    const store = await access.open();
    if (!('snapshot' in store)) throw new Error(`these tests need git: ${store.unavailable}`);
    (access.checkpointed as () => void)(); // the store's first checkpoint: a look at its size, unless disposed meanwhile
    await a.dispose();
    await settle();
    expect(limitBytes).not.toHaveBeenCalled();
  });

  it('waits for a prune under way before it settles', async () => {
    const limitBytes = vi.fn(() => 0);
    const a = stores({ limitBytes });
    await fs.writeFile(path.join(ws, 'a.txt'), 'a\n');
    const access = a.access('session-1', ws);
    const store = await access.open();
    if (!('snapshot' in store)) throw new Error(`these tests need git: ${store.unavailable}`);
    await store.snapshot();
    const reading = gate();
    const read = a.state.locks.of(storeDirFor(path.join(root, 'data'), ws)).shared(() => reading.held);
    (access.checkpointed as () => void)(); // over the limit: a prune, which waits for the read to end
    await vi.waitFor(() => expect(limitBytes).toHaveBeenCalled());
    let disposed = false;
    const disposing = a.dispose().then(() => (disposed = true));
    await settle();
    expect(disposed).toBe(false);
    reading.open();
    await Promise.all([read, disposing]);
  });
});
