/**
 * The app killed with SIGKILL while it snapshots the workspace (SPEC §12): reopened, the
 * session is intact, the turn reads interrupted, and undo of the last whole checkpoint
 * takes its file back.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallResponses } from '../../../../../shared/contract.js';
import { createCore, type Core } from '../../../../../electron/core/core.js';
import { startFakeModel, type FakeModel } from '../../../../fake-model/server.js';
import { API_KEY, providerCases } from '../core-harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');
const CHILD = path.join(here, 'fixtures', 'core-turn-child.ts');
/** Enough files that the snapshot after the command takes long enough to be caught in. */
const FILES = 3000;

let root = '';
let fake: FakeModel | undefined;
let core: Core | undefined;
/** The app's process group, killed after a failed test so no frozen app outlives it. */
let appGroup: number | undefined;
afterEach(async () => {
  if (appGroup !== undefined) {
    try {
      process.kill(-appGroup, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await core?.dispose();
  await fake?.close();
  await fs.rm(root, { recursive: true, force: true });
  core = undefined;
  fake = undefined;
  appGroup = undefined;
});

/** Pids of the processes descended from pid (by /proc), deepest last. */
async function descendants(pid: number): Promise<{ pid: number; comm: string }[]> {
  const found: { pid: number; comm: string; ppid: number }[] = [];
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await fs.readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (m) found.push({ pid: Number(name), comm: m[1]!, ppid: Number(m[2]) });
  }
  const out: { pid: number; comm: string }[] = [];
  const walk = (p: number) => {
    for (const c of found.filter((f) => f.ppid === p)) {
      out.push(c);
      walk(c.pid);
    }
  };
  walk(pid);
  return out;
}

describe('the app killed while it snapshots', () => {
  it('reopens with the session intact, and undo of the last whole checkpoint works', async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-crash-')));
    const [dataDir, workspace, home] = ['data', 'ws', 'home'].map((d) => path.join(root, d)) as [
      string,
      string,
      string,
    ];
    await Promise.all([workspace, home].map((d) => fs.mkdir(d, { recursive: true })));
    await fs.writeFile(path.join(workspace, 'keep.txt'), 'kept\n');
    fake = await startFakeModel();
    const model = providerCases[0]!.config(fake);
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'whole checkpoint\n' } }] },
      {
        toolCalls: [
          {
            name: 'run',
            input: { argv: ['sh', '-c', `mkdir gen && cd gen && seq ${FILES} | xargs touch`] },
          },
        ],
      },
      { text: 'done' },
    );
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, workspace, home, JSON.stringify(model)], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    appGroup = child.pid;
    let lines = '';
    child.stdout.on('data', (c: Buffer) => (lines += c.toString()));
    child.stderr.on('data', (c: Buffer) => (lines += c.toString()));
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_c, signal) => resolve(signal)));

    // The second card's answer starts the command's bracket. Once the command has made its
    // files, the app is frozen (SIGSTOP) and looked at: a git child it has not reaped yet
    // (running, or a zombie) means the after-snapshot is under way and not logged, and the
    // kill lands inside it. Looking at a running app raced it: under load, the rest of the
    // snapshot, the last model reply and a clean exit (code 0, no signal) all fitted
    // between the look and the kill.
    let caught = false;
    const deadline = Date.now() + 60_000;
    while (!caught && Date.now() < deadline && child.exitCode === null) {
      const answers = lines.split('\n').filter((l) => l === 'card_answer').length;
      const made = answers >= 2 ? await fs.readdir(path.join(workspace, 'gen')).catch(() => [] as string[]) : [];
      if (made.length === FILES) {
        process.kill(child.pid!, 'SIGSTOP');
        const gits = (await descendants(child.pid!)).filter((p) => p.comm === 'git');
        caught = gits.length > 0 && lines.split('\n').filter((l) => l === 'checkpoint').length === 1;
        if (!caught) process.kill(child.pid!, 'SIGCONT');
      }
      if (!caught) await new Promise((r) => setTimeout(r, 1));
    }
    expect(caught, `no snapshot was caught running; the child said:\n${lines}`).toBe(true);
    // A stopped process dies of SIGKILL without running again.
    process.kill(-child.pid!, 'SIGKILL');
    expect(await closed).toBe('SIGKILL');
    expect(lines.split('\n').filter((l) => l === 'checkpoint')).toHaveLength(1);

    core = await createCore({
      dataDir,
      home,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ANTHROPIC_API_KEY: API_KEY },
      cipher: null,
    });
    const listed = await core.host.call('sessions.list', {});
    if (!listed.ok) throw new Error(listed.error);
    const id = (listed.data as CallResponses['sessions.list'])[0]!.id;
    const state = await core.host.call('session.state', { id });
    if (!state.ok) throw new Error(state.error);
    const { events } = state.data as CallResponses['session.state'];
    expect(events.at(-1)).toMatchObject({ type: 'turn_ended', reason: 'interrupted' });
    const checkpoint = events.find((e) => e.type === 'checkpoint');
    if (checkpoint?.type !== 'checkpoint') throw new Error('the whole checkpoint is not in the log');
    expect(checkpoint.changed).toMatchObject([{ path: 'a.txt', change: 'added' }]);

    const undone = await core.host.call('session.undo', { id, turnId: checkpoint.turnId });
    expect(undone).toMatchObject({ ok: true, data: { restored: [{ path: 'a.txt', change: 'deleted' }], kept: [] } });
    await expect(fs.access(path.join(workspace, 'a.txt'))).rejects.toThrow();
    expect(await fs.readFile(path.join(workspace, 'keep.txt'), 'utf8')).toBe('kept\n');
  });
});
