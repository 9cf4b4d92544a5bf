/**
 * Invariant 1, no outside byte without consent: every world token that reaches the model
 * (in any tool's result) or a card (in a write's diff) must come from inside the
 * session's workspace, or from a place a person let this very call, or this session,
 * read with this tool. An outside path no one allowed gets one masked answer, whatever
 * is there.
 */
import path from 'node:path';
import type { Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import type { CardEvent, ConsentLedger } from './consent-ledger.js';
import { referenceResolve, within } from './reference-path.js';
import type { TokenSighting, TokenTrail } from './token-trail.js';

const READ_TOOLS = ['read_file', 'grep', 'list_dir'];
const WRITE_TOOLS = ['write_file', 'search_replace'];
const MASKED = 'is outside the workspace and this call could not be prepared';
/** Results the runner writes itself for calls that never ran. */
const SYNTHETIC = /^(cancelled by the user|interrupted:|not run:)/;

type Result = Extract<SessionEvent, { type: 'tool_result' }>;

/** A place the person opened to a tool: the card's or grant's tool and absolute path. */
interface Opening {
  tool: string;
  path: string;
}

export async function readsConsented(
  root: string,
  fresh: readonly SessionEvent[],
  ledger: ConsentLedger,
  grants: readonly Grant[],
  allowedCards: ReadonlySet<string>,
  trail: TokenTrail,
): Promise<string[]> {
  const problems: string[] = [];
  for (const e of fresh) {
    if (e.type === 'card' && e.body.kind === 'write') {
      const shown: Opening[] = [{ tool: 'write_file', path: e.body.path }];
      problems.push(...unjustified(`card ${e.cardId}'s diff`, trail.sightings(e.body.diff), root, shown));
    }
    if (e.type !== 'tool_result' || ![...READ_TOOLS, ...WRITE_TOOLS].includes(e.tool)) continue;
    const cards = [...ledger.cards.values()].filter((c) => c.toolCallId === e.toolCallId);
    const openings = [...cardOpenings(cards, allowedCards), ...grantOpenings(grants)].filter((o) =>
      sameFamily(o.tool, e.tool),
    );
    problems.push(...unjustified(`${e.tool} result ${e.toolCallId}`, trail.sightings(e.output), root, openings));
    problems.push(...(await masked(root, e, ledger, cards, grants)));
  }
  return problems;
}

function sameFamily(opened: string, used: string): boolean {
  return opened === used || (WRITE_TOOLS.includes(opened) && WRITE_TOOLS.includes(used));
}

function cardOpenings(cards: CardEvent[], allowed: ReadonlySet<string>): Opening[] {
  return cards.flatMap((c): Opening[] =>
    allowed.has(c.cardId) && (c.body.kind === 'read' || c.body.kind === 'write')
      ? [{ tool: c.body.tool, path: c.body.path }]
      : [],
  );
}

function grantOpenings(grants: readonly Grant[]): Opening[] {
  return grants.flatMap((g): Opening[] => {
    if (g.kind === 'read') return [{ tool: g.tool, path: g.path }];
    if (g.kind === 'write') return [{ tool: 'write_file', path: g.path }];
    return [];
  });
}

function unjustified(where: string, sightings: TokenSighting[], root: string, openings: Opening[]): string[] {
  return sightings
    .filter((s) => ![...s.places].some((place) => within(root, place) || openings.some((o) => covers(o, s, place))))
    .map((s) => `inv1: ${where} holds ${s.token}, from ${[...s.places].join(', ') || 'nowhere known'}, unconsented`);
}

/** Whether reading `o.path` with `o.tool` may show a token seen at `place`. */
function covers(o: Opening, s: TokenSighting, place: string): boolean {
  if (o.tool === 'grep') return within(o.path, place);
  if (o.tool === 'list_dir') return s.kind === 'name' && place === o.path;
  return s.kind === 'content' && place === o.path;
}

/** An outside call no card asked about and no grant covers must get the masked refusal. */
async function masked(
  root: string,
  e: Result,
  ledger: ConsentLedger,
  cards: CardEvent[],
  grants: readonly Grant[],
): Promise<string[]> {
  const args = ledger.calls.get(e.toolCallId)?.args as { path?: unknown } | undefined;
  if (cards.length > 0 || typeof args?.path !== 'string' || !path.isAbsolute(args.path)) return [];
  if (!e.ok && SYNTHETIC.test(e.output)) return [];
  const ref = await referenceResolve(root, args.path);
  if (!ref.ok || ref.inside) return [];
  const granted = grants.some((g) =>
    WRITE_TOOLS.includes(e.tool)
      ? g.kind === 'write' && g.path === ref.real
      : g.kind === 'read' && g.tool === e.tool && g.path === ref.real,
  );
  if (granted) return [];
  if (e.ok) return [`inv1: ${e.tool} ${e.toolCallId} on outside ${ref.real} succeeded with no card and no grant`];
  if (!e.output.includes(MASKED)) {
    return [`inv1: ${e.tool} ${e.toolCallId} on outside ${ref.real} told the model: ${e.output}`];
  }
  return [];
}
