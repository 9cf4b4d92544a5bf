/**
 * An external agent's start (SPEC §14): from asking for the process to its answer to ACP
 * `initialize`, the real pinned Claude Code adapter jailed (agent-jail.ts: bwrap, its
 * bridge with the proxy door and the gate's forward, seccomp sealed by a nested bwrap)
 * against the same adapter spawned plainly with the same node; medians of interleaved
 * rounds; target <= 1.3x. The adapter comes from GATEHOUSE_AGENT_CACHE
 * (/var/cache/gatehouse-agents), as in the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { launchJailed } from '../../electron/core/agents/agent-jail.js';
import { BwrapSandbox } from '../../electron/core/sandbox/bwrap-sandbox.js';
import { CLAUDE_CODE_SPEC, claudeCodeInstalled } from '../unit/electron/core/agents/claude-code-cache.js';
import { reportRatio } from './measure.js';

const ROUNDS = 7;
const ENV = { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-bench-not-a-key' };

/** Sends initialize over the process's stdio and resolves once it is answered. */
async function initialize(stdin: NodeJS.WritableStream, stdout: NodeJS.ReadableStream): Promise<void> {
  const stream = ndJsonStream(
    Writable.toWeb(stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(stdout as Readable) as ReadableStream<Uint8Array>,
  );
  await client({ name: 'gatehouse-bench' }).connectWith(stream, (ctx) =>
    ctx.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    }),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const installed = claudeCodeInstalled();
  const root = await fs.mkdtemp('/var/tmp/gatehouse-bench-agents-');
  const dataDir = path.join(root, 'data');
  const workspace = path.join(root, 'work');
  const plainHome = path.join(root, 'plain-home');
  await fs.mkdir(path.join(dataDir, 'agents', 'run'), { recursive: true });
  await fs.mkdir(workspace);
  await fs.mkdir(plainHome);
  const gateSocket = path.join(dataDir, 'agents', 'run', 'bench.sock');
  const gate = net.createServer((s) => s.end());
  await new Promise<void>((resolve) => gate.listen(gateSocket, resolve));
  const sandbox = new BwrapSandbox({ dataDir, home: path.join(root, 'home'), env: process.env });
  const entry = path.join(installed.prefix, CLAUDE_CODE_SPEC.entry);

  const jailed = async (): Promise<number> => {
    const t0 = performance.now();
    const agent = await launchJailed({
      spec: CLAUDE_CODE_SPEC,
      install: { ...installed, node: process.execPath },
      workspace,
      dataDir,
      domains: CLAUDE_CODE_SPEC.domains,
      env: ENV,
      gateSocket,
      sandbox,
    });
    await initialize(agent.stdin, agent.stdout);
    const took = performance.now() - t0;
    await agent.stop();
    return took;
  };
  const plain = async (): Promise<number> => {
    const t0 = performance.now();
    const child: ChildProcess = spawn(process.execPath, [entry], {
      cwd: workspace,
      env: { ...ENV, HOME: plainHome, ...CLAUDE_CODE_SPEC.env },
      stdio: ['pipe', 'pipe', 'ignore'],
      detached: true,
    });
    await initialize(child.stdin as Writable, child.stdout as Readable);
    const took = performance.now() - t0;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-(child.pid as number), 'SIGKILL');
    await exited;
    return took;
  };

  try {
    await jailed();
    await plain();
    const ours: number[] = [];
    const reference: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await jailed());
      reference.push(await plain());
    }
    reportRatio(
      'agents-start: Claude Code adapter start to ACP initialize answered, jailed vs plain spawn (same node, same adapter), medians interleaved',
      median(ours),
      median(reference),
      1.3,
    );
    console.log(
      `agents-start: jailed rounds ${ours.map((t) => t.toFixed(0)).join(', ')} ms; plain ${reference.map((t) => t.toFixed(0)).join(', ')} ms`,
    );
  } finally {
    await sandbox.dispose();
    await new Promise((resolve) => gate.close(resolve));
    await fs.rm(root, { recursive: true, force: true });
  }
}

await main();
