/**
 * The runner's own cost per tool step, and many sessions streaming at once.
 *
 * 1. Overhead per step: from the model's step (with an inside read_file call) resolving
 *    to the next model request being started — tool execution, logging (fsync'd) and
 *    rebuilding the conversation from the log included. Reference: the same read_file
 *    through Tools alone. Targets p50 <= 5 ms and p99 <= 20 ms, for a warm turn (a second
 *    session of the same core); the process's first turn is shown too, since it also pays
 *    for loading and compiling the code it runs.
 * 2. 20 sessions streaming turns at once (each step: streamed text and a small read_file)
 *    against the fake model over HTTP: logged events per second and peak RSS of this
 *    process. Target RSS <= 300 MiB. The fake model runs in a process of its own.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createCore } from '../../electron/core/core.js';
import { ProviderChatClient } from '../../electron/core/chat/provider-chat-client.js';
import type { ChatClient } from '../../electron/core/chat/chat-client.js';
import { Workspace } from '../../electron/core/paths/workspace.js';
import { Tools } from '../../electron/core/tools/tools.js';
import type { ModelConfig } from '../../shared/contract.js';
import { startFakeModelProcess } from '../fake-model/fake-model-process.js';
import type { FakeReply } from '../fake-model/server.js';
import { measure, reportValue } from './measure.js';
import { unconfined } from '../support/unconfined.js';

const STEPS = 200;
const SESSIONS = 20;
const STEPS_PER_SESSION = 30;

const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-runner-bench-')));
const workspace = path.join(root, 'ws');
await fs.mkdir(workspace);
await fs.writeFile(path.join(workspace, 'file.txt'), 'line\n'.repeat(2000));
await fs.writeFile(path.join(workspace, 'small.txt'), 'a short line of source code\n'.repeat(40));
// The fake model runs in its own process, so its work is not counted as the app's.
const fake = await startFakeModelProcess();
const model: ModelConfig = {
  provider: 'anthropic',
  modelId: 'bench',
  baseURL: fake.anthropicBaseURL,
  maxOutputTokens: 1024,
};
const env = { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-bench-0000000000' };

function readSteps(n: number): FakeReply[] {
  const replies: FakeReply[] = [];
  for (let i = 0; i < n; i++)
    replies.push({ text: `step ${i}`, toolCalls: [{ name: 'read_file', input: { path: 'file.txt' } }] });
  replies.push({ text: 'done' });
  return replies;
}

/**
 * Gaps of a cold turn (the process's first: modules load and the JIT compiles as it runs)
 * and of a warm one (a second session of the same core), each turn STEPS reads.
 */
async function overheadPerStep(): Promise<{ cold: number[]; warm: number[] }> {
  let gaps: number[] = [];
  let lastStepEnd: number | null = null;
  const timed = (inner: ChatClient): ChatClient => ({
    async step(request) {
      if (lastStepEnd !== null) gaps.push(performance.now() - lastStepEnd);
      const result = await inner.step(request);
      lastStepEnd = performance.now();
      return result;
    },
  });
  const core = await createCore({
    dataDir: path.join(root, 'data-overhead'),
    env,
    home: root,
    cipher: null,
    chatFactory: (m, keys) => timed(new ProviderChatClient({ config: m, keys, env })),
  });
  await core.host.call('settings.set', { model });
  const turn = async (): Promise<number[]> => {
    gaps = [];
    lastStepEnd = null;
    // STEPS model steps in all, the last the plain-text finish, inside the turn's step cap.
    fake.enqueue(...readSteps(STEPS - 1));
    const session = await core.sessions.create(workspace);
    await session.send('read it');
    await session.idle();
    // The last gap is the plain-text finish step, not a tool step.
    return gaps.slice(0, STEPS - 2);
  };
  const cold = await turn();
  const warm = await turn();
  await core.dispose();
  return { cold, warm };
}

function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function manySessions(): Promise<{ eventsPerSecond: number; peakRssMiB: number; baseRssMiB: number }> {
  const core = await createCore({ dataDir: path.join(root, 'data-many'), env, home: root, cipher: null });
  await core.host.call('settings.set', { model });
  const sessions = [];
  for (let i = 0; i < SESSIONS; i++) sessions.push(await core.sessions.create(workspace));
  // Replies are consumed in arrival order, whichever session asks; each turn is STEPS_PER_SESSION reads then text.
  for (let i = 0; i < SESSIONS * STEPS_PER_SESSION; i++) {
    fake.enqueue({ text: 'reading '.repeat(50), toolCalls: [{ name: 'read_file', input: { path: 'small.txt' } }] });
  }
  let events = 0;
  core.host.subscribe((push) => {
    if (push.name === 'session.event') events++;
  });
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  let peak = baseRss;
  let peakHeap = 0;
  let peakExt = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakExt = Math.max(peakExt, m.external + m.arrayBuffers);
  }, 20);
  const t0 = performance.now();
  await Promise.all(sessions.map((s) => s.send('go')));
  // Each turn would go on reading; stop them all once the scripted steps are used up.
  while ((await fake.status()).pending > 0) await new Promise((r) => setTimeout(r, 50));
  fake.enqueue(...Array.from({ length: SESSIONS }, () => ({ text: 'done' })));
  await Promise.all(sessions.map((s) => s.idle()));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  console.log(
    `peak heapUsed ${(peakHeap / 2 ** 20).toFixed(0)} MiB, external+arrayBuffers ${(peakExt / 2 ** 20).toFixed(0)} MiB`,
  );
  await core.dispose();
  return { eventsPerSecond: events / seconds, peakRssMiB: peak / 2 ** 20, baseRssMiB: baseRss / 2 ** 20 };
}

// Each part runs in a fresh process (`npm run bench` runs this file; it re-runs itself for
// the second part) so one part's heap high-water mark is not the other's RSS.
if (process.argv[2] !== 'many') {
  const tools = new Tools({ workspace: await Workspace.open(workspace), commandEnv: {}, sandbox: unconfined() });
  const reference = await measure(async () => tools.execute(await tools.plan('read_file', { path: 'file.txt' })), 200);
  const { cold, warm } = await overheadPerStep();
  const line = (what: string, gaps: number[]) =>
    `runner overhead per inside read_file step, ${what} (${gaps.length} steps): p50 ${percentile(gaps, 0.5).toFixed(2)} ms, p99 ${percentile(gaps, 0.99).toFixed(2)} ms, max ${Math.max(...gaps).toFixed(2)} ms`;
  console.log(line("cold: the process's first turn", cold));
  console.log(line('warm: a second session of the same core', warm));
  console.log(
    `  the read_file tool alone p50 ${reference.p50.toFixed(2)} ms (ratio ${(percentile(warm, 0.5) / reference.p50).toFixed(1)}x)`,
  );
  reportValue('runner overhead p50 (warm)', percentile(warm, 0.5), 5, 'ms');
  reportValue('runner overhead p99 (warm)', percentile(warm, 0.99), 20, 'ms');
} else {
  // tsx turns on source maps, which the app never runs with: every stream reader the SDK
  // releases makes an error whose stack would parse each module's map (13-15 MiB kept).
  process.setSourceMapsEnabled(false);
  const many = await manySessions();
  console.log(`${SESSIONS} sessions streaming at once: ${many.eventsPerSecond.toFixed(0)} logged events/s`);
  reportValue(
    `peak RSS with ${SESSIONS} sessions (started at ${many.baseRssMiB.toFixed(0)} MiB)`,
    many.peakRssMiB,
    300,
    'MiB',
  );
}
await fake.close();
await fs.rm(root, { recursive: true, force: true });
if (process.argv[2] !== 'many') {
  // Once with V8's default heap sizing (what the app gets), and once with the old space
  // capped at 128 MB: the second shows how much of the peak is garbage V8 had not yet
  // collected rather than memory the sessions hold.
  for (const flags of [[], ['--max-old-space-size=128']]) {
    console.log(`-- many sessions, node flags: ${flags.join(' ') || '(defaults)'}`);
    const r = spawnSync(process.execPath, [...flags, ...process.execArgv, fileURLToPath(import.meta.url), 'many'], {
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exitCode = r.status ?? 1;
  }
}
