/**
 * Issue 31 with the real bubblewrap and git: a restore (what undo, redo, a rewind and a
 * revert run) writes and deletes in the sandbox's restore view, so a confined racer that
 * keeps exchanging the restored folder `d` with a link to `~/.config/autostart` never
 * gets a file written there, nor one deleted. And a restore never deletes through a link
 * that points inside the workspace, as the app or confined. The home is a fake one under
 * /var/tmp (a confined process has a private /tmp), the store is in the data folder.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findGit } from '../../../../../electron/core/checkpoints/find-git.js';
import {
  openCheckpointStore,
  type ShadowCheckpointStore,
} from '../../../../../electron/core/checkpoints/shadow-repo.js';
import { StoresState } from '../../../../../electron/core/checkpoints/stores-state.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import type { ToolContext } from '../../../../../electron/core/tools/tool-def.js';
import {
  exchanges,
  raceAsCommand,
  raceAsServer,
  racing,
  setUpRace,
  stopRace,
  untangle,
} from '../sandbox/link-racer.js';
import { writeTree } from './shadow-fixture.js';

let root: string;
let home: string;
let dataDir: string;
let ws: string;
let outside: string;
let sandbox: BwrapSandbox;
let git: string;
let state: StoresState;

beforeEach(async () => {
  const found = await findGit();
  if (!found.ok) throw new Error(`these tests need git: ${found.reason}`);
  git = found.git;
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-restore-confined-'));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  ws = path.join(home, 'src', 'app');
  outside = path.join(home, '.config', 'autostart');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(dataDir, { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
  state = new StoresState();
});
afterEach(async () => {
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

function openStore(confined: boolean): Promise<ShadowCheckpointStore> {
  return openCheckpointStore({
    storeDir: path.join(dataDir, 'checkpoints', 'store'),
    workspaceRoot: ws,
    indexName: 'session-1',
    git,
    state,
    ...(confined ? { sandbox } : {}),
  });
}

const FILES = Array.from({ length: 40 }, (_, i) => `d/f${i}.desktop`);
const MADE = Array.from({ length: 10 }, (_, i) => `d/n${i}.txt`);

describe('a restore while a confined process swaps the restored folder for a link outside', () => {
  /** Snapshot a: the 40 files at v1; b: at v2 with 10 files made. The outside folder holds 10 files of those names. */
  async function twoSnapshots(store: ShadowCheckpointStore, linkTo = outside): Promise<{ a: string; b: string }> {
    await writeTree(ws, Object.fromEntries(FILES.map((p) => [p, 'v1\n'])));
    const a = (await store.snapshot()).id;
    await writeTree(ws, Object.fromEntries([...FILES, ...MADE].map((p) => [p, 'v2\n'])));
    const b = (await store.snapshot()).id;
    await writeTree(outside, Object.fromEntries(MADE.map((p) => [path.basename(p), 'precious\n'])));
    await setUpRace(ws, linkTo);
    return { a, b };
  }

  /** Undoes and redoes the 40-file turn `rounds` times; how many of them went through. */
  async function undoRedo(store: ShadowCheckpointStore, ids: { a: string; b: string }, rounds: number) {
    let done = 0;
    for (let i = 0; i < rounds; i++) {
      for (const id of [ids.a, ids.b]) {
        // Refused when the check sees the link ("d is a link now"): that is a safe answer too.
        done += await store.restore(id, [...FILES, ...MADE]).then(
          () => 1,
          () => 0,
        );
      }
    }
    return done;
  }

  async function outsideAsLeft(): Promise<Record<string, string>> {
    const names = await fs.readdir(outside);
    return Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, await fs.readFile(path.join(outside, n), 'utf8')])),
    );
  }

  const untouched = () => Object.fromEntries(MADE.map((p) => [path.basename(p), 'precious\n']));

  it('writes and deletes nothing there while the racer runs as a command', { timeout: 120_000 }, async () => {
    const store = await openStore(true);
    const ids = await twoSnapshots(store);
    const ctx: ToolContext = {
      workspace: await Workspace.open(ws, { dataDir }),
      commandEnv: { PATH: process.env.PATH },
      sandbox: { sandbox, refuseUnconfined: () => false },
    };
    const command = await raceAsCommand(ctx, 100);
    await racing(ws);
    await undoRedo(store, ids, 15).finally(() => stopRace(ws));
    const raced = await command.done;
    await untangle(ws);
    expect(raced.ok && exchanges(raced.output)).toBeGreaterThan(0);
    expect(await outsideAsLeft()).toEqual(untouched());
  });

  it('writes and deletes nothing there while the racer runs as a long-lived server', { timeout: 120_000 }, async () => {
    const store = await openStore(true);
    const ids = await twoSnapshots(store);
    const server = await raceAsServer(sandbox, ws, 100);
    const output: Buffer[] = [];
    server.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    await racing(ws);
    await undoRedo(store, ids, 15).finally(() => stopRace(ws));
    await server.exited;
    await server.settle();
    await server.release();
    await untangle(ws);
    expect(exchanges(Buffer.concat(output).toString('utf8'))).toBeGreaterThan(0);
    expect(await outsideAsLeft()).toEqual(untouched());
    // Once the racer is gone, the undo goes through as ever.
    await store.restore(ids.a, [...FILES, ...MADE]);
    expect(await fs.readFile(path.join(ws, 'd', 'f7.desktop'), 'utf8')).toBe('v1\n');
    await expect(fs.access(path.join(ws, 'd', 'n3.txt'))).rejects.toThrow();
  });
  it("writes nothing into the workspace's .git through a link to its hooks", { timeout: 120_000 }, async () => {
    const hooks = path.join(ws, '.git', 'hooks');
    await fs.mkdir(hooks, { recursive: true });
    const store = await openStore(true);
    const ids = await twoSnapshots(store, hooks);
    const server = await raceAsServer(sandbox, ws, 100);
    await racing(ws);
    await undoRedo(store, ids, 15).finally(() => stopRace(ws));
    await server.exited;
    await server.settle();
    await server.release();
    await untangle(ws);
    expect(await fs.readdir(hooks)).toEqual([]);
  });
});

describe('a restore and a link that points inside the workspace', () => {
  it.each([
    ['as the app', false],
    ['confined', true],
  ])('never deletes through it (%s)', async (_how, confined) => {
    const store = await openStore(confined);
    await writeTree(ws, { 'dir/x.txt': 'keep me\n' });
    const a = await store.snapshot();
    await writeTree(ws, { 'made/x.txt': 'made by the turn\n' });
    const b = await store.snapshot();
    expect((await store.changes(a.id, b.id)).map((c) => c.path)).toEqual(['made/x.txt']);
    // Then the folder the turn made became a link to another folder of the workspace.
    await fs.rm(path.join(ws, 'made'), { recursive: true });
    await fs.symlink('dir', path.join(ws, 'made'));
    await store.restore(a.id, ['made/x.txt']);
    expect(await fs.readFile(path.join(ws, 'dir', 'x.txt'), 'utf8')).toBe('keep me\n');
  });
});

describe('a confined restore and the names it deletes', () => {
  it.each([
    [
      'names that hold quotes, spaces, a newline and a dash first',
      ["it's here.txt", 'a "b" $(c) `d`.txt', 'two\nlines.txt', '-rf'],
    ],
    // 3000 quoted names are more than one argument may hold (128 KiB): the script reads them from a list.
    [
      'more names than a script can hold',
      Array.from({ length: 3000 }, (_, i) => `made-by-the-turn-with-a-long-name-${i}.txt`),
    ],
  ])('deletes exactly the files the turn made: %s', async (_what, names) => {
    const store = await openStore(true);
    await writeTree(ws, { 'keep.txt': 'keep\n', 'sub/keep.txt': 'keep\n' });
    const a = await store.snapshot();
    await writeTree(ws, Object.fromEntries(names.map((n) => [`sub/made/${n}`, 'made\n'])));
    await fs.writeFile(path.join(ws, 'keep.txt'), 'changed\n');
    const b = await store.snapshot();
    const paths = (await store.changes(a.id, b.id)).map((c) => c.path);
    expect(paths).toHaveLength(names.length + 1);
    await store.restore(a.id, paths);
    // Nothing else either: the empty places the sandbox stood in for .git and the app's folders are gone.
    expect((await fs.readdir(ws)).sort()).toEqual(['keep.txt', 'sub']);
    expect(await fs.readdir(path.join(ws, 'sub'))).toEqual(['keep.txt']);
    expect(await fs.readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('keep\n');
  });
});

describe('a confined restore of the places commands may not write', () => {
  it("writes a file of the app's folders the turn changed, and leaves the workspace's .git as it was", async () => {
    await fs.mkdir(path.join(ws, '.git'));
    await writeTree(ws, { '.claude/settings.json': '{"a":1}\n', 'src/a.txt': 'a\n' });
    const store = await openStore(true);
    const a = await store.snapshot();
    await writeTree(ws, { '.claude/settings.json': '{"a":2}\n', 'src/a.txt': 'b\n' });
    await store.snapshot();
    await store.restore(a.id, ['.claude/settings.json', 'src/a.txt']);
    expect(await fs.readFile(path.join(ws, '.claude', 'settings.json'), 'utf8')).toBe('{"a":1}\n');
    expect(await fs.readFile(path.join(ws, 'src', 'a.txt'), 'utf8')).toBe('a\n');
    expect(await fs.readdir(path.join(ws, '.git'))).toEqual([]);
  });
});
