/**
 * Runs one history against a real core in this process, over a fresh temp folder, and
 * checks every invariant after every step: act, let the core come to rest, look at
 * everything, compare with the model.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentMode } from './agent-mode.js';
import type { ProcessGroup } from '../../electron/core/process/process-group.js';
import { CoreDriver } from './core-driver.js';
import { startRacer } from './race-zone.js';
import { isRestoreStep, type History } from './history.js';
import { Invariants } from './invariants.js';
import { logFolds } from './log-check.js';
import { observe, type Observation } from './observation.js';
import { writeMcpConfigs } from './mcp-world.js';
import { applyWorld, makeLayout, populate, Tokens, type Layout } from './world.js';

export interface HistoryOutcome {
  violations: string[];
  /** Steps run (all of them, or up to the first violation). */
  steps: number;
  /** How many events of each type the sessions logged: what the history reached. */
  reached: Record<string, number>;
}

/** A step (or closing the core) that takes longer than this is hung: the history stops there. */
const STEP_LIMIT_MS = 30_000;

/** Waits for `work`, or for `ms` to pass, whichever comes first. */
export async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runHistory(
  history: History,
  options: { dump?: boolean; agent?: boolean } = {},
): Promise<HistoryOutcome> {
  const layout = await makeLayout();
  // The agent's script, journal and socket live apart from the layout, whose every byte the invariants look at.
  const agent = options.agent
    ? await AgentMode.start(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-agent-')))
    : null;
  const tokens = new Tokens();
  const invariants = new Invariants(
    layout.data,
    layout.markers,
    2,
    layout.outside,
    history.mcp ? layout.mcpLogs : null,
    history.racer === true,
  );
  const driver = new CoreDriver(
    layout,
    {
      given: (s, cardId, answer, edited) => invariants.ledgers[s]!.personAnswered(cardId, answer, edited),
      refused: (s, cardId) => invariants.ledgers[s]!.personRetracted(cardId),
    },
    'c',
    history.mcp === true,
    agent,
  );
  let racer: ProcessGroup | null = null;
  try {
    await populate(layout, tokens, history.hooks, history.racer);
    if (history.mcp) await writeMcpConfigs(layout, history.second);
    await driver.boot();
    await driver.openSessions(history.second);
    if (history.racer) racer = await startRacer(layout);
    const outcome = await play(history, layout, tokens, driver, invariants);
    if (options.dump) await dump(layout, driver);
    return outcome;
  } finally {
    await racer?.stop();
    await racer?.release();
    await within(driver.close(), STEP_LIMIT_MS);
    await agent?.close();
    await fs.rm(layout.root, { recursive: true, force: true });
  }
}

async function play(
  history: History,
  layout: Layout,
  tokens: Tokens,
  driver: CoreDriver,
  invariants: Invariants,
): Promise<HistoryOutcome> {
  const look = () => observe(layout.root, layout.markers, () => driver.views());
  let before = await look();
  invariants.trail.record(before.tree);
  for (const [i, step] of history.steps.entries()) {
    const acted = step.kind === 'world' ? applyWorld(step.op, layout, tokens) : driver.act(step);
    if ((await within(acted, STEP_LIMIT_MS)) === 'late') {
      return {
        violations: [`step ${i + 1}: liveness: the step did not return in ${STEP_LIMIT_MS} ms`],
        steps: i + 1,
        reached: {},
      };
    }
    const stuck = await driver.settle();
    const after = await look();
    const problems = await invariants.check(step, before, after, { restores: driver.restores.splice(0) });
    if (stuck) problems.push(stuck);
    problems.push(...driver.unexpected.splice(0));
    if (step.kind === 'restart' || isRestoreStep(step)) problems.push(...(await logsFold(layout, driver)));
    if (problems.length > 0) {
      return { violations: problems.map((p) => `step ${i + 1}: ${p}`), steps: i + 1, reached: reached(after) };
    }
    before = after;
  }
  const end = await logsFold(layout, driver);
  return { violations: end.map((p) => `end: ${p}`), steps: history.steps.length, reached: reached(before) };
}

async function logsFold(layout: Layout, driver: CoreDriver): Promise<string[]> {
  const problems: string[] = [];
  for (const [s, id] of driver.ids.entries()) {
    const held = async () => (await driver.views())[s]!.events;
    problems.push(...(await logFolds(layout.data, id, held)));
  }
  return problems;
}

/** Prints both logs, for a person reading a failure. */
async function dump(layout: Layout, driver: CoreDriver): Promise<void> {
  for (const view of await driver.views()) {
    console.log(`--- session ${view.id} (${view.root})`);
    for (const e of view.events) console.log(JSON.stringify(e).replaceAll(layout.root, '<root>').slice(0, 600));
  }
}

export function reached(obs: Observation): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const view of obs.sessions) {
    for (const e of view.events) {
      const key =
        e.type === 'tool_result'
          ? `${e.tool}:${e.ok ? 'ok' : 'error'}`
          : e.type === 'card'
            ? `card:${e.body.kind}`
            : e.type;
      counts[key] = (counts[key] ?? 0) + 1;
      // The person's edits (SPEC §13): answered with, dropped stale with, kept by a card asked again.
      const edited =
        (e.type === 'card_answer' || e.type === 'card_stale') && e.edited
          ? `${e.type}:edited`
          : e.type === 'card' && e.reasked?.edits
            ? 'card:reasked-with-edits'
            : null;
      if (edited) counts[edited] = (counts[edited] ?? 0) + 1;
    }
  }
  return counts;
}
