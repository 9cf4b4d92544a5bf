/**
 * The host process a kill -9 is aimed at: a real core over a history's data folder,
 * driven over stdin and stdout, one JSON line per message. argv: the layout (JSON), the
 * second workspace ("same" or "nested"), a call-id prefix, "mcp" or "no-mcp" (whether the
 * workspaces name MCP servers), and, after a kill, the sessions to take up again (JSON
 * {ids, roots}).
 *
 * In: {"step": Step} (never a world step; the parent changes the world itself).
 * Out: {"ready": ...} once booted and at rest, then one {"done": ...} per step; a
 * {"given": ...} line for each answer the person gives, the moment it is given.
 */
import { createInterface } from 'node:readline';
import { AFTER_BOOT_MS, CoreDriver } from './core-driver.js';
import type { History, Step } from './history.js';
import type { RestoreCall } from './restore-request.js';
import type { Layout } from './world.js';

export interface ChildAnswer {
  s: number;
  cardId: string;
  answer: string;
  refused: boolean;
}

export interface ChildRest {
  ids: string[];
  roots: string[];
  stuck: string | null;
  unexpected: string[];
  answers: ChildAnswer[];
  /** The undos, redos and rewinds the person asked for in the step, with the app's replies. */
  restores: RestoreCall[];
  sessions: { openCards: unknown[]; stateGrants: unknown[] }[];
}

const [layoutJson, second, prefix, mcp, resume] = process.argv.slice(2);
const layout = JSON.parse(layoutJson!) as Layout;
const answers: ChildAnswer[] = [];
const driver = new CoreDriver(
  layout,
  {
    // Told at once, before the app hears it (a pipe write is synchronous on Linux): the
    // parent must know of an answer even when the kill lands right after it.
    given: (s, cardId, answer, edited) =>
      process.stdout.write(`${JSON.stringify({ given: { s, cardId, answer, edited } })}\n`),
    refused: (s, cardId) => answers.push({ s, cardId, answer: '', refused: true }),
  },
  prefix,
  mcp === 'mcp',
);

await driver.boot();
if (resume) Object.assign(driver, JSON.parse(resume) as { ids: string[]; roots: string[] });
else await driver.openSessions(second as History['second']);
await reply('ready', AFTER_BOOT_MS);

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { step } = JSON.parse(line) as { step: Step };
  await driver.act(step);
  await reply('done');
}
await driver.close();

async function reply(kind: 'ready' | 'done', stableMs = 0): Promise<void> {
  const stuck = await driver.settle(stableMs);
  const views = await driver.views();
  const rest: ChildRest = {
    ids: driver.ids,
    roots: driver.roots,
    stuck,
    unexpected: driver.unexpected.splice(0),
    answers: answers.splice(0),
    restores: driver.restores.splice(0),
    sessions: views.map((v) => ({ openCards: v.openCards, stateGrants: v.stateGrants })),
  };
  process.stdout.write(`${JSON.stringify({ [kind]: rest })}\n`);
}
