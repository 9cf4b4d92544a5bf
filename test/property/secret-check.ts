/**
 * Confined commands (SPEC §9): a planted secret (the home's SSH key, a file of the data
 * folder, the app's own environment) never reaches the model through a command's
 * output, unless that command's card said it runs unconfined; and no other tool hands
 * it over, since no generated path names those places. An escaping command changes the
 * outside file it targets only when its card said unconfined (its landing, below).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import type { CardEvent, ConsentLedger } from './consent-ledger.js';
import { ESCAPE_BYTES, ESCAPE_TARGET } from './history-arbitrary.js';
import type { Landing } from './effect-check.js';
import { fileBytes, type Tree } from './tree.js';
import { GIT_RAN, PLANTED_ENV_SECRET, PLANTED_SECRET } from './world.js';

const planted = (text: string) => text.includes(PLANTED_SECRET) || text.includes(PLANTED_ENV_SECRET);

export function secretsKept(fresh: readonly SessionEvent[], ledger: ConsentLedger, grants: readonly Grant[]): string[] {
  const problems: string[] = [];
  for (const e of fresh) {
    if (e.type === 'hook_run' && planted(e.output)) {
      problems.push(`inv6: a Stop hook's output handed the model the planted secret`);
    }
    if (e.type !== 'tool_result' || !planted(e.output)) continue;
    if (e.tool === 'run' && ranUnconfined(e.toolCallId, ledger, grants)) continue;
    problems.push(
      `inv6: ${e.tool} result ${e.toolCallId} handed the model the planted secret, and no card said unconfined`,
    );
  }
  return problems;
}

/** The call's own card said unconfined, or, with no card, it asked unconfined and a grant for exactly that covered it. */
function ranUnconfined(toolCallId: string, ledger: ConsentLedger, grants: readonly Grant[]): boolean {
  const cards = commandCards(ledger, toolCallId);
  if (cards.length > 0) return cards.some(saidUnconfined);
  const call = ledger.calls.get(toolCallId);
  const args = call?.args as { argv?: unknown; unconfined?: unknown } | undefined;
  if (args?.unconfined !== true || !Array.isArray(args.argv)) return false;
  const argv = args.argv as string[];
  return grants.some((g) => g.kind === 'command' && g.unconfined === true && sameArgv(g.argv, argv));
}

/**
 * What allowed unconfined escapes may have written this step: the escape target with the
 * escape bytes appended, once per such call. A confined one may write nothing there.
 */
export function escapeLandings(
  allowed: readonly CardEvent[],
  fresh: readonly SessionEvent[],
  ledger: ConsentLedger,
  grants: readonly Grant[],
  outside: string,
  before: Tree,
): Landing[] {
  const target = path.join(outside, path.basename(ESCAPE_TARGET));
  const escapes = (argv: readonly string[]) => argv.at(-1) === target && argv[2]?.startsWith(`printf ${ESCAPE_BYTES}`);
  const viaCards = allowed.filter((c) => c.body.kind === 'command' && saidUnconfined(c) && escapes(c.body.argv));
  const viaGrants = fresh.filter(
    (e) =>
      e.type === 'tool_result' &&
      e.tool === 'run' &&
      commandCards(ledger, e.toolCallId).length === 0 &&
      ranUnconfined(e.toolCallId, ledger, grants) &&
      escapes(((ledger.calls.get(e.toolCallId)?.args as { argv?: string[] }).argv ?? []) as string[]),
  );
  const landings: Landing[] = [];
  let bytes = fileBytes(before, target) ?? Buffer.alloc(0);
  for (const via of [...viaCards.map((c) => `card ${c.cardId}`), ...viaGrants.map(() => 'an unconfined grant')]) {
    bytes = Buffer.concat([bytes, Buffer.from(ESCAPE_BYTES)]);
    landings.push({ target, bytes, via });
  }
  return landings;
}

function commandCards(ledger: ConsentLedger, toolCallId: string): CardEvent[] {
  return [...ledger.cards.values()].filter((c) => c.toolCallId === toolCallId && c.body.kind === 'command');
}

function saidUnconfined(card: CardEvent): boolean {
  return card.body.kind === 'command' && (card.body.sandbox?.confined === false || card.body.unconfined === true);
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/**
 * After a command that tried to plant code for the person's git ran confined, the
 * person's own unconfined `git status` in the workspace runs nothing it planted (its
 * mark, GIT_RAN, never appears). Such commands are only ever generated confined.
 */
export async function personsGitClean(
  fresh: readonly SessionEvent[],
  ledger: ConsentLedger,
  root: string,
  outside: string,
): Promise<string[]> {
  const tried = fresh.some((e) => {
    if (e.type !== 'tool_result' || e.tool !== 'run') return false;
    const argv = (ledger.calls.get(e.toolCallId)?.args as { argv?: unknown } | undefined)?.argv;
    return Array.isArray(argv) && argv.some((a) => typeof a === 'string' && a.includes('core.fsmonitor'));
  });
  if (!tried) return [];
  const mark = path.join(outside, path.basename(GIT_RAN));
  await new Promise<void>((resolve) => {
    try {
      execFile(
        'git',
        ['status', '--short'],
        { cwd: root, timeout: 10_000, env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: outside } },
        () => resolve(),
      );
    } catch {
      // The world made the workspace unreachable (a link loop): the person's git cannot run there either.
      resolve();
    }
  });
  const ran = await fs.access(mark).then(
    () => true,
    () => false,
  );
  return ran ? [`inv6: the person's own git status in ${root} ran code a confined command planted`] : [];
}
