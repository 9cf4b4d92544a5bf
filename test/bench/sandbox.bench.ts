/**
 * The sandbox's cost (SPEC §9). (1) `true` through the run tool confined (plan with the
 * default profile, then execute inside bubblewrap: a private /tmp, the PID namespace,
 * the group check at exit) against a plain child_process.spawn of `true` awaited to its
 * exit; target <= 3x. A bare `bwrap ... true` is shown for scale. (2) The RSS of the
 * sandbox's helper processes with 10 sessions open: bubblewrap is wrapped directly, so
 * there is no proxy or bridge kept running between commands; the figure counts every
 * live descendant of this process once each of the 10 sessions' tools has run a command.
 * (3) For scale, the RSS of one running sandbox's own processes (bwrap and its PID 1).
 * (4) `true` with a network list against without, through the run tool; target <= 1.5x.
 * The proxy's own RSS with 10 doors is in sandbox-network.bench.ts.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../electron/core/tools/command-env.js';
import { feedWrapper, wrapperStdio, type WrapperFds } from '../../electron/core/process/wrapper-fds.js';
import { runTool } from '../../electron/core/tools/run.js';
import type { ToolContext } from '../../electron/core/tools/tool-def.js';
import { measure, reportRatio, reportValue } from './measure.js';

const ROUNDS = 9;
const PER_ROUND = 20;
const SESSIONS = 10;

async function runThroughTool(ctx: ToolContext, argv: string[], network?: string[]): Promise<void> {
  const args = network ? { argv, network } : { argv };
  const result = await runTool.execute(await runTool.plan(args, ctx), ctx, {});
  if (!result.ok) throw new Error(result.error);
}

/** Spawns and awaits the exit; a wrapper gets its fds (3: PID 1 report, 4: the seccomp program) as the app gives them. */
function spawnAwait(argv: readonly string[], fds: WrapperFds = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] ?? '', argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe', ...wrapperStdio(fds)] });
    child.once('error', reject);
    child.once('spawn', () => feedWrapper(child, fds));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Live descendants of `root` (read from /proc), with their RSS in KiB. */
async function descendants(root: number): Promise<{ pid: number; rssKiB: number; name: string }[]> {
  const parents = new Map<number, number>();
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await fs.readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue;
    parents.set(Number(name), Number(fields[1]));
  }
  const found: { pid: number; rssKiB: number; name: string }[] = [];
  const isBelow = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  for (const pid of parents.keys()) {
    if (!isBelow(pid)) continue;
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const rss = Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    found.push({ pid, rssKiB: rss, name: /^Name:\s*(.*)$/m.exec(status)?.[1] ?? '?' });
  }
  return found;
}

async function main(): Promise<void> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-sandbox-bench-')));
  let sandbox: BwrapSandbox | null = null;
  try {
    const dataDir = path.join(root, 'data');
    const home = path.join(root, 'home');
    await Promise.all([fs.mkdir(dataDir), fs.mkdir(path.join(home, '.ssh'), { recursive: true })]);
    sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
    const availability = await sandbox.availability();
    if (!availability.available) throw new Error(`no sandbox here: ${availability.reason}`);
    const contexts: ToolContext[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const ws = path.join(root, `ws${i}`);
      await fs.mkdir(ws);
      contexts.push({
        workspace: await Workspace.open(ws),
        commandEnv: commandEnv(process.env),
        sandbox: { sandbox, refuseUnconfined: () => false },
      });
    }
    const ctx = contexts[0] as ToolContext;
    const profile = await sandbox.profile(ctx.workspace.root, { network: false, git: false });
    const confinedTrue = await sandbox.confine({ argv: ['true'], cwd: ctx.workspace.root, env: process.env }, profile);

    const reference: number[] = [];
    const ours: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      reference.push((await measure(() => spawnAwait(['true']), PER_ROUND, 3)).p50);
      ours.push((await measure(() => runThroughTool(ctx, ['true']), PER_ROUND, 3)).p50);
      bare.push((await measure(() => spawnAwait(confinedTrue.argv, confinedTrue), PER_ROUND, 3)).p50);
    }
    await confinedTrue.release();
    reportRatio(
      'sandbox: `true` through the run tool, confined, vs plain spawn awaited to exit (median of round p50s)',
      median(ours),
      median(reference),
      3,
    );
    reportRatio('sandbox: for scale, a bare `bwrap <profile> true` vs plain spawn', median(bare), median(reference), 3);
    reportRatio(
      'sandbox: a confined `true` through the run tool vs a bare bwrap with the same profile (plan, profile, private /tmp, the end-of-run checks)',
      median(ours),
      median(bare),
      1.2,
    );

    // A command with network (a door of the proxy, the bridge, the sealed seccomp) against one
    // without, both through the run tool, the proxy already running.
    const withNet: number[] = [];
    const withoutNet: number[] = [];
    await runThroughTool(ctx, ['true'], ['registry.npmjs.org']);
    for (let round = 0; round < ROUNDS; round++) {
      withoutNet.push((await measure(() => runThroughTool(ctx, ['true']), PER_ROUND, 3)).p50);
      withNet.push((await measure(() => runThroughTool(ctx, ['true'], ['registry.npmjs.org']), PER_ROUND, 3)).p50);
    }
    reportRatio(
      'sandbox: `true` with network ["registry.npmjs.org"] vs without, both through the run tool (proxy running)',
      median(withNet),
      median(withoutNet),
      1.5,
    );

    for (const c of contexts) await runThroughTool(c, ['true']);
    // tsx's esbuild service is this script's own, not the sandbox's.
    const helpers = (await descendants(process.pid)).filter((p) => p.name !== 'esbuild');
    const helperRss = helpers.reduce((sum, p) => sum + p.rssKiB, 0) / 1024;
    reportValue(
      `sandbox: RSS of helper processes with ${SESSIONS} sessions open (${helpers.length} processes)`,
      helperRss,
      64,
      'MiB',
    );

    // One sandbox while its command runs: bwrap outside, bwrap as PID 1 inside, and the command.
    const running = runThroughTool(ctx, ['sleep', '1']);
    await new Promise((r) => setTimeout(r, 400));
    const live = await descendants(process.pid);
    const wrapperRss = live.filter((p) => p.name === 'bwrap').reduce((sum, p) => sum + p.rssKiB, 0) / 1024;
    await running;
    reportValue(
      `sandbox: RSS of one running sandbox's own processes (${live.filter((p) => p.name === 'bwrap').length} bwrap)`,
      wrapperRss,
      16,
      'MiB',
    );
  } finally {
    await sandbox?.dispose();
    await fs.rm(root, { recursive: true, force: true });
  }
}

await main();
