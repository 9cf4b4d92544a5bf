/**
 * Memory with external agents (issue 33): the main process's RSS with 5 sessions each
 * driven by the real Claude Code (each after one turn, its agent still running), against
 * the same process with 5 native sessions after one turn each, in the same run; the
 * agents' own processes (the jail, the adapter and the CLI) reported apart, from /proc.
 * Against the fake model on loopback; the adapter from the agent cache
 * (`GATEHOUSE_AGENT_CACHE`, filled by scripts/install-agents-cache.ts).
 */
import { readdirSync, readFileSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { startFakeModel } from '../fake-model/server.js';
import { cachedAgent } from '../support/agent-cache.js';
import { startHarness, type Harness } from '../unit/electron/core/core-harness.js';
import { reportRatio } from './measure.js';

const SESSIONS = 5;
const MiB = 1024 * 1024;

/** One turn in each of `n` sessions (agent or native), each ended; the harness stays open. */
async function turns(h: Harness, n: number, agent: boolean): Promise<void> {
  for (let i = 0; i < n; i++) {
    const workspace = path.join(h.root, `ws${i}`);
    await fs.mkdir(workspace, { recursive: true });
    const { id } = await h.call('sessions.open', { workspace, ...(agent ? { agent: 'claude-code' as const } : {}) });
    await h.call('session.send', { id, text: 'hello' });
    if (agent) {
      const start = await h.event(id, 'card', (c) => c.body.kind === 'agent_start');
      await h.call('card.answer', { id, cardId: start.cardId, answer: 'allow_session' });
    }
    await h.event(id, 'turn_ended');
  }
}

/** The RSS of every process below this one (the agents' jails and what runs in them), summed. */
function descendantsRss(): number {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const below = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (below.has(ppid) && !below.has(pid)) {
        below.add(pid);
        grew = true;
      }
    }
  }
  below.delete(process.pid);
  let bytes = 0;
  for (const pid of below) {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      bytes += rss ? Number(rss[1]) * 1024 : 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return bytes;
}

async function settledRss(): Promise<number> {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return process.memoryUsage.rss();
}

async function measure(agent: boolean): Promise<{ main: number; agents: number }> {
  const fake = await startFakeModel({ keepBodies: false });
  fake.setResponder(() => ({ text: 'Hello.' }));
  const port = Number(new URL(fake.url).port);
  const h = await startHarness(undefined, {
    fake,
    base: '/var/tmp',
    env: { ANTHROPIC_API_KEY: 'sk-ant-bench-0123456789' },
    agentModel: () => ({ endpoint: { port }, baseUrlVariable: 'ANTHROPIC_BASE_URL' }),
    eventTimeoutMs: 120_000,
  });
  try {
    // The harness chose a native model already (against the same fake); an agent brings its own.
    if (agent) {
      const { prefix } = await cachedAgent('claude-code');
      await fs.mkdir(path.join(h.dataDir, 'agents', 'claude-code'), { recursive: true });
      await fs.symlink(prefix, path.join(h.dataDir, 'agents', 'claude-code', 'pkg'));
    }
    await turns(h, SESSIONS, agent);
    return { main: await settledRss(), agents: descendantsRss() };
  } finally {
    await h.close();
    await fake.close();
  }
}

const native = await measure(false);
const agents = await measure(true);
console.log(`${SESSIONS} sessions after one turn each`);
reportRatio(`  main-process RSS, agent sessions vs native sessions`, agents.main / MiB, native.main / MiB, 1.5, 'MiB');
console.log(`  the agents' own processes (jails, adapters, CLIs): ${(agents.agents / MiB).toFixed(0)} MiB in all`);
