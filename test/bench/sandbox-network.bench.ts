/**
 * The network room's cost (SPEC §9, `network`), with the proxy already running.
 * (1) Starting `true` as a network command will start: a door opened, bwrap with the
 * bridge (one socat listener started and waited for), the seccomp program sealed over
 * the command by a nested bwrap (seal.ts), the door closed; against `true` as a command
 * without network starts: bwrap with --disable-userns and the same seccomp program;
 * target <= 1.5x. (2) For scale, the same without any seccomp program on either side:
 * the bridge alone, as @anthropic-ai/sandbox-runtime runs it. (3) The proxy's memory with
 * 10 doors open: it runs in the app's process, so the figure is the growth of this
 * process's RSS from before the proxy existed. (4) For scale, the RSS of the socat
 * listeners inside one running sandbox. Nothing here leaves the machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bridgeArgv, bridgeMounts } from '../../electron/core/sandbox/network/bridge.js';
import { NetworkProxy, type ProxyDoor } from '../../electron/core/sandbox/network/network-proxy.js';
import { sealArgv } from '../../electron/core/sandbox/network/seal.js';
import { findSocat } from '../../electron/core/sandbox/network/socat.js';
import { syscallFilter } from '../../electron/core/sandbox/syscall-filter.js';
import { measure, reportRatio, reportValue } from './measure.js';

const TURNS = 120;
const DOORS = 10;
const BWRAP = '/usr/bin/bwrap';
const PROGRAM_FD = 4;

/** Spawns argv and waits for it to exit 0; with `program`, writes it on fd 4 as the app does. */
function spawnAwait(argv: readonly string[], program?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] ?? '', argv.slice(1), {
      stdio: program ? ['ignore', 'ignore', 'ignore', 'ignore', 'pipe'] : 'ignore',
    });
    if (program) {
      const fd = child.stdio[PROGRAM_FD] as NodeJS.WritableStream;
      fd.on('error', () => undefined);
      fd.end(program);
    }
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

/** Runs each of `fns` once per turn, `turns` times after a warm-up, and returns each one's durations in ms. */
async function interleaved(fns: (() => Promise<unknown>)[], turns: number): Promise<number[][]> {
  for (const fn of fns) await measure(fn, 3, 0);
  const samples = fns.map(() => [] as number[]);
  for (let turn = 0; turn < turns; turn++) {
    for (const [i, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn();
      samples[i]?.push(performance.now() - t0);
    }
  }
  return samples;
}

function median(values: number[] | undefined): number {
  const sorted = [...(values ?? [])].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The app's bwrap flags for a command, without its profile's mounts. */
function bwrapPrefix(privateTmp: string, disableUserns: boolean): string[] {
  return [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-user',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--unshare-net',
    '--ro-bind',
    '/',
    '/',
    '--bind',
    privateTmp,
    '/tmp',
  ];
}

const TAIL = ['--dev', '/dev', '--proc', '/proc'];

async function rssKiB(pid: number | 'self'): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0);
}

/** Live processes named `name` whose ancestry includes `root`. */
async function descendantsNamed(root: number, name: string): Promise<number[]> {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
    parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const below = (pid: number) => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  return [...names].filter(([pid, n]) => n === name && below(pid)).map(([pid]) => pid);
}

async function main(): Promise<void> {
  const socat = await findSocat(process.env.PATH);
  if (!socat) throw new Error('socat is not installed');
  const privateTmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-net-bench-'));
  const disableUserns =
    spawnSync(BWRAP, ['--unshare-user', '--disable-userns', '--ro-bind', '/', '/', 'true']).status === 0;
  const program = syscallFilter();
  if (!program) throw new Error(`no seccomp program for ${process.arch}`);
  // Warm the modules the proxy uses (http, net), so their loading is not counted as the proxy's memory.
  const warm = new NetworkProxy();
  await (await warm.open(true)).close();
  await warm.dispose();
  global.gc?.();
  const rssBefore = await rssKiB('self');
  const proxy = new NetworkProxy();
  try {
    const doors: ProxyDoor[] = [];
    for (let i = 0; i < DOORS; i++)
      doors.push(await proxy.open(i % 2 === 0 ? true : ['registry.npmjs.org', 'pypi.org']));
    global.gc?.();
    const rssDoors = await rssKiB('self');
    reportValue(
      `sandbox-network: the proxy's RSS with ${DOORS} doors open (growth of the app process's RSS since before the proxy)`,
      Math.max(0, rssDoors - rssBefore) / 1024,
      16,
      'MiB',
    );

    const withoutNetwork = [
      BWRAP,
      ...bwrapPrefix(privateTmp, disableUserns),
      ...TAIL,
      '--seccomp',
      String(PROGRAM_FD),
      '--',
      'true',
    ];
    // The outer sandbox of a network command keeps one user namespace for the sealing bwrap, and no seccomp.
    const withNetwork = (door: ProxyDoor) => [
      BWRAP,
      ...bwrapPrefix(privateTmp, false),
      ...bridgeMounts(door),
      ...TAIL,
      '--',
      ...bridgeArgv(sealArgv(['true'], BWRAP, PROGRAM_FD), socat),
    ];
    const bare = [BWRAP, ...bwrapPrefix(privateTmp, disableUserns), ...TAIL, '--', 'true'];
    const bridgedBare = (door: ProxyDoor) => [
      BWRAP,
      ...bwrapPrefix(privateTmp, disableUserns),
      ...bridgeMounts(door),
      ...TAIL,
      '--',
      ...bridgeArgv(['true'], socat),
    ];
    const perCommand = async (argv: (door: ProxyDoor) => string[], fd4?: Buffer) => {
      const door = await proxy.open(['registry.npmjs.org']);
      try {
        await spawnAwait(argv(door), fd4);
      } finally {
        await door.close();
      }
    };

    // Interleaved one run at a time, so a load that comes and goes on the machine weighs on all alike.
    const [reference, ours, bareReference, bareOurs] = await interleaved(
      [
        () => spawnAwait(withoutNetwork, program),
        () => perCommand(withNetwork, program),
        () => spawnAwait(bare),
        () => perCommand(bridgedBare),
      ],
      TURNS,
    );
    reportRatio(
      'sandbox-network: `true` with network (door, bridge, seccomp sealed by a nested bwrap) vs without network (bwrap with seccomp), medians interleaved',
      median(ours),
      median(reference),
      1.5,
    );
    reportRatio(
      'sandbox-network: for scale, with no seccomp program on either side (door and bridge vs bare bwrap)',
      median(bareOurs),
      median(bareReference),
      1.5,
    );

    // One sandbox while its command runs: the socat listener it started.
    const door = doors[0] as ProxyDoor;
    const argv = [
      BWRAP,
      ...bwrapPrefix(privateTmp, disableUserns),
      ...bridgeMounts(door),
      ...TAIL,
      '--',
      ...bridgeArgv(['sleep', '1'], socat),
    ];
    const running = spawnAwait(argv);
    await new Promise((r) => setTimeout(r, 400));
    const listeners = await descendantsNamed(process.pid, 'socat');
    const listenerRss = (await Promise.all(listeners.map(rssKiB))).reduce((a, b) => a + b, 0) / 1024;
    await running;
    reportValue(
      `sandbox-network: RSS of one running sandbox's bridge (${listeners.length} socat listeners)`,
      listenerRss,
      16,
      'MiB',
    );
    await Promise.all(doors.map((d) => d.close()));
  } finally {
    await proxy.dispose();
    await fs.rm(privateTmp, { recursive: true, force: true });
  }
}

await main();
