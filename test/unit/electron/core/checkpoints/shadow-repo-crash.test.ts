/**
 * A snapshot killed with SIGKILL half way (the app crashing, or the machine's OOM killer)
 * leaves the store working: the lock files and half-written pack of the dead git are no
 * obstacle to the next snapshot, and every earlier snapshot is whole.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashTree } from './checkpoint-harness.js';
import { disposeFixture, makeFixture, open, writeTree, type Fixture } from './shadow-fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');
const childScript = path.join(here, 'fixtures', 'snapshot-child.ts');
const FILES = 2500;

let f: Fixture;
beforeEach(async () => {
  f = await makeFixture();
});
afterEach(async () => {
  await disposeFixture(f);
});

/** Starts a snapshot in a child process and SIGKILLs its whole group once git is writing the pack. */
async function snapshotKilledMidway(indexName: string): Promise<void> {
  const packDir = path.join(f.storeDir, 'repo', 'objects', 'pack');
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, f.storeDir, f.ws, f.git, indexName], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  let writing = false;
  while (!writing && child.exitCode === null) {
    const names = await fs.readdir(packDir).catch(() => [] as string[]);
    writing = names.some((n) => n.startsWith('tmp_pack_'));
    if (!writing) await new Promise((r) => setTimeout(r, 2));
  }
  if (!writing) throw new Error(`the child finished before it could be killed: ${output}`);
  process.kill(-(child.pid as number), 'SIGKILL');
  expect(await closed).toBe('SIGKILL');
}

describe('a snapshot killed half way', () => {
  it('leaves the store working and earlier snapshots whole', async () => {
    await writeTree(f.ws, { 'README.md': 'start\n', 'src/a.ts': 'a\n' });
    const start = await hashTree(f.ws);
    const first = await open(f, 'crashy');
    const a = await first.snapshot();

    const many: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) many[`gen/d${i % 40}/f${i}.txt`] = `file ${i}\n`;
    await writeTree(f.ws, many);
    await snapshotKilledMidway('crashy');
    const worktree = path.join(f.storeDir, 'repo', 'worktrees', 'crashy');
    expect(existsSync(path.join(worktree, 'index.lock'))).toBe(true); // what the dead git left

    const reopened = await open(f, 'crashy');
    expect(await reopened.has(a.id)).toBe(true);
    const b = await reopened.snapshot();
    const changes = await reopened.changes(a.id, b.id);
    expect(changes).toHaveLength(FILES);
    expect(changes.every((c) => c.change === 'added')).toBe(true);
    expect(existsSync(path.join(worktree, 'index.lock'))).toBe(false);

    await reopened.restore(
      a.id,
      changes.map((c) => c.path),
    );
    expect(await hashTree(f.ws)).toEqual(start);
    await reopened.restore(
      b.id,
      changes.map((c) => c.path),
    );
    expect(await fs.readFile(path.join(f.ws, 'gen/d7/f7.txt'), 'utf8')).toBe('file 7\n');
    // The prune clears the dead git's half-written pack, and drops `a` (not the session's last).
    expect((await reopened.prune(1)).removed).toBe(1);
    expect(await reopened.has(a.id)).toBe(false);
    expect(await reopened.has(b.id)).toBe(true);
    expect(
      (await fs.readdir(path.join(f.storeDir, 'repo', 'objects', 'pack'))).filter((n) => n.startsWith('tmp_')),
    ).toEqual([]);
  });
});

describe('an index git cannot read', () => {
  it.each([
    ['garbage', Buffer.from('not an index at all')],
    ['cut short', null],
  ])('(%s) is built again from the workspace, and the earlier snapshots stay whole', async (_name, content) => {
    await writeTree(f.ws, { 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    const store = await open(f, 'broken');
    const a = await store.snapshot();
    const index = path.join(f.storeDir, 'repo', 'worktrees', 'broken', 'index');
    const whole = await fs.readFile(index);
    await fs.writeFile(index, content ?? whole.subarray(0, Math.floor(whole.length / 2)));
    await fs.writeFile(path.join(f.ws, 'a.txt'), 'a2\n');
    const b = await store.snapshot();
    expect(await store.changes(a.id, b.id)).toEqual([{ path: 'a.txt', change: 'modified', bytes: 3 }]);
  });
});
