/**
 * A history with a real host process and a kill -9: the core runs in a child
 * (crash-child.ts); the history is played into it step by step and checked as in
 * process, until the chosen step, which is sent and then cut short by SIGKILL a few
 * milliseconds later. A new child starts over the same data folder, and invariant 5 is
 * checked: the logs fold, every card open before the kill is open again or withdrawn
 * with a reason, and nothing changed on disk but whole writes a person allowed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Answer, Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import type { CardEvent } from './consent-ledger.js';
import type { ChildRest } from './crash-child.js';
import type { History, Step } from './history.js';
import { Invariants } from './invariants.js';
import { logFolds } from './log-check.js';
import { readMarkers, readMetaGrants, type Observation } from './observation.js';
import { readTree } from './tree.js';
import { writeMcpConfigs } from './mcp-world.js';
import { applyWorld, makeLayout, populate, Tokens, type Layout } from './world.js';
import type { HistoryOutcome } from './history-runner.js';

export interface Crash {
  /** The step (0-based) the kill lands in; a world step there moves it to the next step. */
  at: number;
  /** How long after sending that step the kill comes. */
  delayMs: number;
}

const REPLY_LIMIT_MS = 60_000;

interface GivenAnswer {
  s: number;
  cardId: string;
  answer: Answer;
  /** The person's edited file sent with the answer (SPEC §13). */
  edited?: string;
}
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

export async function runCrashHistory(history: History, crash: Crash): Promise<HistoryOutcome> {
  const layout = await makeLayout();
  const tokens = new Tokens();
  const invariants = new Invariants(
    layout.data,
    layout.markers,
    2,
    layout.outside,
    history.mcp ? layout.mcpLogs : null,
  );
  const children: Child[] = [];
  try {
    await populate(layout, tokens, history.hooks);
    if (history.mcp) await writeMcpConfigs(layout, history.second);
    const given = (a: GivenAnswer) => invariants.ledgers[a.s]!.personAnswered(a.cardId, a.answer, a.edited);
    const first = new Child(layout, history, 'a', given);
    children.push(first);
    let rest = await first.next('ready');
    let before = await look(layout, rest);
    invariants.trail.record(before.tree);
    for (const [i, step] of history.steps.entries()) {
      if (step.kind === 'world') {
        await applyWorld(step.op, layout, tokens);
      } else if (i >= crash.at) {
        return await killAndRecover(layout, history, step, i, crash, first, before, invariants, children);
      } else {
        first.send(step);
        rest = await first.next('done');
        heard(rest, invariants);
      }
      const after = await look(layout, rest);
      const restores = step.kind === 'world' ? [] : rest.restores;
      const problems = [...(await invariants.check(step, before, after, { restores })), ...restProblems(rest)];
      if (problems.length > 0) return outcome(problems, i + 1);
      before = after;
    }
    return outcome([], history.steps.length);
  } finally {
    for (const c of children) c.kill();
    await fs.rm(layout.root, { recursive: true, force: true });
  }
}

async function killAndRecover(
  layout: Layout,
  history: History,
  step: Step,
  i: number,
  crash: Crash,
  child: Child,
  before: Observation,
  invariants: Invariants,
  children: Child[],
): Promise<HistoryOutcome> {
  child.send(step);
  await new Promise((r) => setTimeout(r, crash.delayMs));
  await child.killHard();
  const ids = before.sessions.map((v) => v.id);
  const roots = before.sessions.map((v) => v.root);
  const given = (a: GivenAnswer) => invariants.ledgers[a.s]!.personAnswered(a.cardId, a.answer, a.edited);
  const again = new Child(layout, history, 'b', given, { ids, roots });
  children.push(again);
  const rest = await again.next('ready');
  heard(rest, invariants);
  const after = await look(layout, rest);
  const problems = [...(await invariants.check(step, before, after, { restarted: true })), ...restProblems(rest)];
  for (const view of after.sessions) problems.push(...(await logFolds(layout.data, view.id, null)));
  return outcome(
    problems.map((p) => `after kill -9 in step ${i + 1}: ${p}`),
    i + 1,
    true,
  );
}

function outcome(problems: string[], steps: number, killed = false): HistoryOutcome {
  return { violations: problems, steps, reached: killed ? { kills: 1 } : {} };
}

function heard(rest: ChildRest, invariants: Invariants): void {
  // Given answers were heard as they were given; these are the ones the app refused.
  for (const a of rest.answers) if (a.refused) invariants.ledgers[a.s]!.personRetracted(a.cardId);
}

function restProblems(rest: ChildRest): string[] {
  return [...(rest.stuck ? [rest.stuck] : []), ...rest.unexpected];
}

async function look(layout: Layout, rest: ChildRest): Promise<Observation> {
  const sessions = [];
  for (const [s, id] of rest.ids.entries()) {
    sessions.push({
      id,
      root: rest.roots[s]!,
      events: await eventsOnDisk(layout, id),
      stateGrants: rest.sessions[s]!.stateGrants as Grant[],
      metaGrants: await readMetaGrants(layout.data, id),
      openCards: rest.sessions[s]!.openCards as CardEvent[],
    });
  }
  return { tree: await readTree(layout.root), markers: await readMarkers(layout.markers), sessions };
}

async function eventsOnDisk(layout: Layout, id: string): Promise<SessionEvent[]> {
  const text = await fs.readFile(path.join(layout.data, 'sessions', id, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as SessionEvent);
}

/** One host process and its line protocol. */
class Child {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly replies: string[] = [];
  private waiter: (() => void) | null = null;
  private stderr = '';
  private exited = false;

  private readonly closed: Promise<void>;

  constructor(
    layout: Layout,
    history: History,
    prefix: string,
    onGiven: (a: GivenAnswer) => void,
    resume?: { ids: string[]; roots: string[] },
  ) {
    const mcp = history.mcp ? 'mcp' : 'no-mcp';
    const args = ['--import', 'tsx', CHILD, JSON.stringify(layout), history.second, prefix, mcp];
    if (resume) args.push(JSON.stringify(resume));
    this.proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = createInterface({ input: this.proc.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('{"given"')) return onGiven((JSON.parse(line) as { given: GivenAnswer }).given);
      this.replies.push(line);
      this.waiter?.();
    });
    this.closed = new Promise((r) => lines.once('close', r));
    this.proc.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.proc.on('exit', () => {
      this.exited = true;
      this.waiter?.();
    });
  }

  send(step: Step): void {
    this.proc.stdin.write(`${JSON.stringify({ step })}\n`);
  }

  /** The next reply; a host that says nothing for a minute is hung, and is killed. */
  async next(kind: 'ready' | 'done'): Promise<ChildRest> {
    const deadline = Date.now() + REPLY_LIMIT_MS;
    for (;;) {
      const line = this.replies.shift();
      if (line !== undefined) return (JSON.parse(line) as Record<string, ChildRest>)[kind]!;
      if (this.exited) throw new Error(`the host process exited: ${this.stderr}`);
      if (Date.now() > deadline) {
        this.kill();
        throw new Error(`liveness: the host process did not reply in ${REPLY_LIMIT_MS} ms`);
      }
      await new Promise<void>((r) => {
        this.waiter = r;
        setTimeout(r, 1000);
      });
      this.waiter = null;
    }
  }

  async killHard(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGKILL');
    // Every line written before the kill is read, answers given included.
    await Promise.all([gone, this.closed]);
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}
