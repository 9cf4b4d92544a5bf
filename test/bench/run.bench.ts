/**
 * The run tool's cost. (1) Running `true` through the tool (plan and execute: a process
 * group, the capture, the group check at exit) against a plain child_process.spawn of
 * `true` awaited to its exit; target <= 1.5x. (2) Peak RSS growth while a command prints
 * 1 GB, with and without a live-output listener; bound 64 MiB. For scale, the same for a
 * bare reader that drops every chunk: Node allocates a fresh buffer per read and frees
 * them only at V8's external-memory GC threshold, so that reader sets the floor. Each
 * memory figure comes from a fresh process, as freed memory kept by one run would hide
 * the next run's growth.
 */
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Workspace } from '../../electron/core/paths/workspace.js';
import { commandEnv } from '../../electron/core/tools/command-env.js';
import { runTool } from '../../electron/core/tools/run.js';
import type { ExecContext, ToolContext } from '../../electron/core/tools/tool-def.js';
import { measure, reportRatio, reportValue } from './measure.js';
import { unconfined } from '../support/unconfined.js';

const MIB = 1024 * 1024;

async function runThroughTool(ctx: ToolContext, argv: string[], exec: ExecContext = {}): Promise<void> {
  const result = await runTool.execute(await runTool.plan({ argv }, ctx), ctx, exec);
  if (!result.ok) throw new Error(result.error);
}

function bareReader(argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] ?? '', argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    child.once('error', reject);
    child.stdout.on('data', () => {});
    child.once('close', () => resolve());
  });
}

function spawnTrue(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('true');
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}

/** Runs fn while sampling RSS; returns the peak growth over the RSS just before, in MiB. */
async function peakRssGrowth(fn: () => Promise<void>): Promise<number> {
  const before = process.memoryUsage.rss();
  const maxRssBefore = process.resourceUsage().maxRSS;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  await fn();
  clearInterval(sampler);
  // maxRSS (KiB) catches a peak between samples, but it only tells about fn if it rose during fn.
  const maxRss = process.resourceUsage().maxRSS;
  peak = Math.max(peak, process.memoryUsage.rss(), maxRss > maxRssBefore ? maxRss * 1024 : 0);
  return (peak - before) / MIB;
}

const ROUNDS = 9;
const PER_ROUND = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

type MemoryCase = 'tool' | 'tool-live' | 'bare';

/** In a child process: one 1 GB run of the given case; prints the growth in MiB. */
async function measureMemoryCase(ctx: ToolContext, which: MemoryCase): Promise<void> {
  await runThroughTool(ctx, ['true']);
  await bareReader(['true']);
  const gigabyte = ['head', '-c', '1G', '/dev/zero'];
  const growth = await peakRssGrowth(() =>
    which === 'bare'
      ? bareReader(gigabyte)
      : runThroughTool(ctx, gigabyte, which === 'tool-live' ? { onOutput: () => {} } : {}),
  );
  console.log(growth.toFixed(3));
}

function memoryInFreshProcess(which: MemoryCase): number {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), which], {
    encoding: 'utf8',
  });
  return Number(out.trim());
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-run-bench-'));
  try {
    const ctx: ToolContext = {
      workspace: await Workspace.open(dir),
      commandEnv: commandEnv(process.env),
      sandbox: unconfined(),
    };
    const memoryCase = process.argv[2] as MemoryCase | undefined;
    if (memoryCase !== undefined) return await measureMemoryCase(ctx, memoryCase);

    const bare = memoryInFreshProcess('bare');
    const quiet = memoryInFreshProcess('tool');
    const live = memoryInFreshProcess('tool-live');
    reportValue('run: peak RSS growth while a command prints 1 GB', quiet, 64, 'MiB');
    reportValue('run: peak RSS growth while a command prints 1 GB, live output on', live, 64, 'MiB');
    reportRatio('run: that growth against a bare Node pipe reader dropping every chunk', quiet, bare, 1.25, 'MiB');

    // Alternating rounds, so drift in the machine's load hits both sides alike.
    const reference: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      reference.push((await measure(spawnTrue, PER_ROUND, 3)).p50);
      ours.push((await measure(() => runThroughTool(ctx, ['true']), PER_ROUND, 3)).p50);
    }
    reportRatio(
      'run: `true` through the tool vs plain spawn awaited to exit (median of round p50s)',
      median(ours),
      median(reference),
      1.5,
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

await main();
