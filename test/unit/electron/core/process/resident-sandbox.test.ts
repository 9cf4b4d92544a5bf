/**
 * A resident sandbox with the real bubblewrap: programs entered in it see the view and
 * nothing more, with exactly the environment a command started afresh there gets; a kill
 * reaches the program inside; a server that dies ends the runs in flight with words and
 * takes no more; and stopping it leaves no process. A fake home under /var/tmp (a
 * confined process has a private /tmp) holds a secret outside the view.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessGroup } from '../../../../../electron/core/process/process-group.js';
import { ResidentSandbox, type ResidentRun } from '../../../../../electron/core/process/resident-sandbox.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { readOnlyProfile } from '../../../../../electron/core/sandbox/helper-view.js';
import type { Confine } from '../../../../../electron/core/sandbox/sandbox.js';
import { eventually, groupMembers, groupPids } from './resident-processes.js';

let root: string;
let ws: string;
let sandbox: BwrapSandbox;
let view: Confine;
let env: NodeJS.ProcessEnv;
const started: ResidentSandbox[] = [];

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-resident-'));
  const home = path.join(root, 'home');
  ws = path.join(home, 'ws');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(path.join(root, 'data'));
  await fs.writeFile(path.join(ws, 'inside.txt'), 'in the view\n');
  await fs.writeFile(path.join(home, 'secret.txt'), 'outside the view\n');
  sandbox = new BwrapSandbox({ dataDir: path.join(root, 'data'), home, env: process.env });
  const command = await sandbox.profile(ws, { network: false, git: false, toolchains: false });
  view = { sandbox, profile: readOnlyProfile(command, [ws]) };
  // A NODE_OPTIONS that would stop any node it reached from starting.
  env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', NODE_OPTIONS: '--require /nowhere/at-all.js' };
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.stop()));
  await sandbox.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function start(): Promise<ResidentSandbox> {
  const resident = await ResidentSandbox.start({ confine: view, cwd: ws, env });
  started.push(resident);
  return resident;
}

async function outputOf(
  run: ResidentRun,
): Promise<{ out: string; err: string; code: number | null; signal: string | null }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  run.stdout.on('data', (c: Buffer) => out.push(c));
  run.stderr.on('data', (c: Buffer) => err.push(c));
  const exit = await run.closed;
  return { out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8'), ...exit };
}

/** The same program started afresh in the same view, as before residents: the reference. */
async function freshOutput(argv: string[]): Promise<string> {
  const group = await ProcessGroup.start({ argv, cwd: ws, env, stdin: 'ignore', confine: view });
  const out: Buffer[] = [];
  group.stdout?.on('data', (c: Buffer) => out.push(c));
  await group.exited;
  await group.closed;
  await group.settle();
  await group.release();
  return Buffer.concat(out).toString('utf8');
}

describe('a resident sandbox', () => {
  it('runs many programs in one sandbox, each seeing the view and nothing outside it', async () => {
    const resident = await start();
    const inside = await outputOf(resident.run(['cat', 'inside.txt'], ws));
    const outside = await outputOf(resident.run(['cat', path.join(root, 'home', 'secret.txt')], ws));
    expect(inside).toMatchObject({ out: 'in the view\n', code: 0 });
    expect(outside.out).toBe('');
    expect(outside.code).not.toBe(0);
    // Still the one server, taking more: the wrapper, the sandbox's PID 1 and node; both programs have ended.
    expect(resident.alive).toBe(true);
    expect(groupMembers(resident.pid)).toHaveLength(3);
  });

  it("gives a program exactly the environment a fresh start there gets, and keeps the person's NODE_OPTIONS from the server", async () => {
    const resident = await start();
    const entered = await outputOf(resident.run(['env'], ws));
    const fresh = await freshOutput(['env']);
    const sorted = (text: string) => text.trim().split('\n').sort();
    expect(sorted(entered.out)).toEqual(sorted(fresh));
    expect(entered.out).toContain('NODE_OPTIONS=--require /nowhere/at-all.js');
  });

  it('kills the program inside when asked, and only it', { timeout: 30_000 }, async () => {
    const resident = await start();
    const run = resident.run(['sleep', '60'], ws);
    const exit = outputOf(run);
    expect(await eventually(() => groupMembers(resident.pid).includes('sleep'))).toBe(true);
    run.kill();
    expect(await exit).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(groupMembers(resident.pid)).not.toContain('sleep');
    expect(resident.alive).toBe(true);
  });

  it('stops the whole sandbox when its server does not answer a kill', { timeout: 30_000 }, async () => {
    const resident = await start();
    const run = resident.run(['sleep', '60'], ws);
    const exit = outputOf(run);
    expect(await eventually(() => groupMembers(resident.pid).includes('sleep'))).toBe(true);
    // The server frozen: it reads no kill and says nothing.
    const server = groupPids(resident.pid).find((p) => p.comm !== 'bwrap' && p.comm !== 'sleep');
    process.kill(server!.pid, 'SIGSTOP');
    run.kill();
    const ended = await exit;
    expect(ended.code).toBe(2);
    expect(ended.err).toMatch(/stopped before it finished/);
    expect(await eventually(() => groupMembers(resident.pid).length === 0)).toBe(true);
  });

  it('ends a run in flight with words when its server dies, and takes no more', { timeout: 30_000 }, async () => {
    const resident = await start();
    const run = outputOf(resident.run(['sleep', '60'], ws));
    expect(await eventually(() => groupMembers(resident.pid).includes('sleep'))).toBe(true);
    process.kill(-resident.pid, 'SIGKILL');
    const ended = await run;
    expect(ended.code).toBe(2);
    expect(ended.err).toMatch(/^rg: stopped before it finished: its sandbox ended/);
    expect(resident.alive).toBe(false);
    const after = await outputOf(resident.run(['true'], ws));
    expect(after.code).toBe(2);
    expect(after.err).toMatch(/stopped before it finished/);
  });

  it('says so when a program cannot start inside', async () => {
    const resident = await start();
    const missing = await outputOf(resident.run(['/nowhere/no-such-program'], ws));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot start: .*ENOENT/);
    expect(resident.alive).toBe(true);
  });

  it('leaves no process once stopped, even with a program running', { timeout: 30_000 }, async () => {
    const resident = await start();
    const run = outputOf(resident.run(['sleep', '60'], ws));
    expect(await eventually(() => groupMembers(resident.pid).includes('sleep'))).toBe(true);
    await resident.stop();
    expect((await run).code).toBe(2);
    expect(groupMembers(resident.pid)).toEqual([]);
  });
});
