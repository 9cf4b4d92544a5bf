/**
 * A crash with the real, pinned Claude Code waiting on a card: the core runs in a child
 * process, the model asks to write a file, its write card opens, and the child is SIGKILLed
 * as a crash would end it. Nothing it started lingers (the agent's jail dies with it); a
 * fresh core on the same data folder shows the card open again, allowing it writes the file
 * once and the turn ends, and events.jsonl holds every event the first core logged, once,
 * its seq unbroken. The adapter comes from the agent cache; when it is missing this FAILS.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { promises as fs, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallName, CallRequest, CallResponses, Reply } from '../../../../../shared/contract.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { readProcStat } from '../../../../../electron/core/procfs/proc-stat.js';
import { startFakeModel, type FakeModel, type RecordedRequest } from '../../../../fake-model/server.js';
import { cachedAgent } from '../../../../support/agent-cache.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');
const KEY = 'sk-ant-test-crash-0123456789abcdef';
const WAIT_MS = 60_000;

/** A core in a child process, spoken to over IPC with the contract's calls. */
class CoreChild {
  private next = 0;
  private readonly pending = new Map<number, (reply: Reply<unknown>) => void>();
  readonly exited: Promise<NodeJS.Signals | number | null>;

  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: { id?: number; reply?: Reply<unknown> }) => {
      if (m.id !== undefined) this.pending.get(m.id)?.(m.reply!);
      this.pending.delete(m.id!);
    });
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  }

  static async start(config: object): Promise<CoreChild> {
    const child = fork(path.join(here, 'core-child.ts'), [JSON.stringify(config)], {
      cwd: repoRoot,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const core = new CoreChild(child);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      void core.exited.then((how) => reject(new Error(`the core child ended before it was ready (${how})`)));
    });
    return core;
  }

  call<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponses[N]> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => (reply.ok ? resolve(reply.data as never) : reject(new Error(reply.error))));
      this.child.send({ id, name, payload: request });
    });
  }

  async events(id: string): Promise<SessionEvent[]> {
    return (await this.call('session.events', { id, sinceSeq: 0 })).events;
  }

  /** The first event that matches, polled (a crash test must not lean on pushes it may lose). */
  async event<T extends SessionEvent['type']>(
    id: string,
    type: T,
    match: (e: Extract<SessionEvent, { type: T }>) => boolean = () => true,
  ): Promise<Extract<SessionEvent, { type: T }>> {
    const until = Date.now() + WAIT_MS;
    for (;;) {
      const events = await this.events(id);
      const found = events.find((e) => e.type === type && match(e as never));
      if (found) return found as never;
      if (Date.now() > until) {
        throw new Error(`timed out waiting for ${type}; logged: ${events.map((e) => e.type).join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Every process below `pid` now, by walking /proc's parent links. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const child = Number(name);
    if (!Number.isInteger(child)) continue;
    const stat = readProcStat(child);
    if (stat) parents.set(child, stat.ppid);
  }
  const below: number[] = [];
  let frontier = [pid];
  while (frontier.length) {
    frontier = [...parents].filter(([, ppid]) => frontier.includes(ppid)).map(([c]) => c);
    below.push(...frontier);
  }
  return below;
}

/** Which of `pids` still run (a zombie runs nothing), and any process whose cwd is under `root`. */
function lingering(pids: number[], root: string): number[] {
  const alive = pids.filter((p) => {
    const stat = readProcStat(p);
    return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
  });
  const inRoot = readdirSync('/proc')
    .map(Number)
    .filter((p) => Number.isInteger(p) && p !== process.pid)
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/cwd`).startsWith(root);
      } catch {
        return false;
      }
    });
  return [...new Set([...alive, ...inRoot])];
}

function commandOf(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return '?';
  }
}

/** The model: the gate's write of kept.txt, then (after its result, or told of the restart) done. */
function writeOnce(request: RecordedRequest) {
  const body = request.body as { tools?: { name: string }[]; messages?: { role: string; content: unknown }[] };
  if (!body.tools?.some((t) => t.name.startsWith('mcp__gatehouse__'))) return { text: 'ok' };
  const said = JSON.stringify(body.messages ?? []);
  if (said.includes('The app restarted') || said.includes('"tool_result"')) return { text: 'Done.' };
  return {
    toolCalls: [{ name: 'mcp__gatehouse__write_file', input: { path: 'kept.txt', content: 'kept\n' } }],
  };
}

let cores: CoreChild[] = [];
let fake: FakeModel | null = null;
let root = '';
let stray: number[] = [];

afterEach(async () => {
  for (const core of cores) core.child.kill('SIGKILL');
  await Promise.all(cores.map((c) => c.exited));
  // Whatever outlived its core is ended here, by its id, so one failure does not leak into the next test.
  for (const pid of stray) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  await fake?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
  cores = [];
  fake = null;
  root = '';
  stray = [];
});

describe('the real Claude Code across a crash', () => {
  it('SIGKILLed with a write card open: nothing lingers, the card is open again, allowed it writes once, no event lost or doubled', async () => {
    const { prefix } = await cachedAgent('claude-code');
    root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-crash-'));
    const [dataDir, workspace, home] = ['data', 'ws', 'home'].map((d) => path.join(root, d)) as [
      string,
      string,
      string,
    ];
    await Promise.all([workspace, home].map((d) => fs.mkdir(d, { recursive: true })));
    await fs.mkdir(path.join(dataDir, 'agents', 'claude-code'), { recursive: true });
    await fs.symlink(prefix, path.join(dataDir, 'agents', 'claude-code', 'pkg'));
    fake = await startFakeModel();
    fake.setResponder(writeOnce);
    const config = {
      dataDir,
      home,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ANTHROPIC_API_KEY: KEY },
      modelPort: Number(new URL(fake.url).port),
      baseUrlVariable: 'ANTHROPIC_BASE_URL',
    };
    const file = path.join(workspace, 'kept.txt');

    const first = await CoreChild.start(config);
    cores.push(first);
    const { id } = await first.call('sessions.open', { workspace, agent: 'claude-code' });
    await first.call('session.send', { id, text: 'write kept.txt' });
    const start = await first.event(id, 'card', (c) => c.body.kind === 'agent_start');
    await first.call('card.answer', { id, cardId: start.cardId, answer: 'allow_session' });
    const open = await first.event(id, 'card', (c) => c.body.kind === 'write');
    const before = await first.events(id);
    const started = descendants(first.child.pid!);
    expect(started.length).toBeGreaterThan(0);

    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    // The agent's jail dies with its parent (bwrap's --die-with-parent); give it a generous moment.
    let left = lingering(started, root);
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      left = lingering(started, root);
    }
    stray = left;
    // The figure the report quotes: how many processes the core had started, and how soon they were gone.
    console.log(
      `${started.length} processes below the core; ${left.length} left ${Date.now() - killedAt} ms after SIGKILL`,
    );
    expect(left.map((p) => `${p} ${commandOf(p)}`)).toEqual([]);
    expect(await fs.stat(file).catch(() => null)).toBeNull();

    const second = await CoreChild.start(config);
    cores.push(second);
    const state = await second.call('session.state', { id });
    expect(state.summary.waiting).toBe(1);
    expect(state.events.some((e) => e.type === 'card' && e.cardId === open.cardId)).toBe(true);
    await second.call('card.answer', { id, cardId: open.cardId, answer: 'allow_once' });
    const ended = await second.event(id, 'turn_ended');
    expect(await fs.readFile(file, 'utf8')).toBe('kept\n');
    // Relaunched, it took up its session and was told the outcome, so the turn finished.
    expect(ended.reason).toBe('finished');
    expect(fake.requests.some((r) => r.rawBody.includes('The app restarted') && r.rawBody.includes('kept.txt'))).toBe(
      true,
    );

    const logged = (await fs.readFile(path.join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as SessionEvent);
    // Every event the first core logged is there, as it was, once; seq runs on without a gap or a repeat.
    expect(logged.slice(0, before.length)).toEqual(before);
    expect(logged.map((e) => e.seq)).toEqual(logged.map((_, i) => logged[0]!.seq + i));
    const writes = logged.filter((e) => e.type === 'card' && e.body.kind === 'write');
    expect(writes.map((e) => e.type === 'card' && e.cardId)).toEqual([open.cardId]);
    expect(logged.filter((e) => e.type === 'card_answer' && e.cardId === open.cardId)).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toContain(KEY);
  }, 180_000);
});
