/**
 * Invariant 7, no MCP call without consent (SPEC §10), checked from the server's side:
 * every line in a session's test-server log (written by the server as a call arrives,
 * before it is handled) is one the person consented to in that session:
 *
 * - a call: an allow on an `mcp` card for exactly that tool and those arguments (canonical
 *   JSON), given in this step, used once; or an allow_session grant of this session for that
 *   tool with those arguments, not voided by an `mcp_tool_changed`, given while the tool
 *   was described as the server describes it now;
 * - a start: an allow on an `mcp_server` card for this session's config, given in this step,
 *   used once; or an `mcp_server` grant of this session for it. After a denied start card,
 *   no start until a later allow.
 *
 * How the server describes `echo` is read from its own log, not from the app: as it starts
 * (DEFAULT_ECHO), then as each change_description call it received set it.
 */
import path from 'node:path';
import type { Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import type { CardEvent, ConsentLedger } from './consent-ledger.js';
import { DEFAULT_ECHO, MCP_SERVER, WORKSPACE_MCP_FILE, type ServerLine } from './mcp-world.js';

/** What one session's server looks like from its log so far. */
export class ServerModel {
  /** How the running server describes echo; null before it first started. */
  echo: string | null = null;
}

export interface McpInput {
  /** The session's real workspace root, where its .mcp.json is. */
  root: string;
  lines: readonly ServerLine[];
  /** Every event of the session so far, and those new in this step. */
  all: readonly SessionEvent[];
  fresh: readonly SessionEvent[];
  ledger: ConsentLedger;
  /** The session's grants (the model's) when the step began; the ledger holds those after it. */
  grantsBefore: readonly Grant[];
  /** Cards whose allow was logged this step and not dropped as stale. */
  allowed: readonly CardEvent[];
  server: ServerModel;
}

export function mcpConsented(input: McpInput): string[] {
  const { lines, ledger, server } = input;
  const source = path.join(input.root, WORKSPACE_MCP_FILE);
  const cards = input.allowed.filter((c) => c.body.kind === 'mcp' || c.body.kind === 'mcp_server');
  const grants = [...input.grantsBefore, ...ledger.grantList()];
  const problems: string[] = [];
  const take = (match: (c: CardEvent) => boolean): CardEvent | undefined => {
    const i = cards.findIndex(match);
    return i < 0 ? undefined : cards.splice(i, 1)[0];
  };
  for (const line of lines) {
    if (line.event === 'started') {
      const card = take(
        (c) => c.body.kind === 'mcp_server' && c.body.server === MCP_SERVER && c.body.source === source,
      );
      const granted = grants.some((g) => g.kind === 'mcp_server' && g.server === MCP_SERVER && g.source === source);
      if (!card && !granted) {
        problems.push(`inv7: the MCP server of ${input.root} started with no start card allowed and no grant`);
      }
      if (!card && lastStartAnswer(input.all, ledger) === 'deny') {
        problems.push(
          `inv7: the MCP server of ${input.root} started after its start card was denied, with no allow since`,
        );
      }
      server.echo = DEFAULT_ECHO;
      continue;
    }
    const tool = String(line.tool);
    const args = canonicalJson(line.args ?? {});
    // Only echo's description changes; the others' are the server's fixed ones.
    const described = (c: CardEvent | undefined) =>
      tool !== 'echo' || (c?.body.kind === 'mcp' && c.body.description === server.echo);
    const card = take(
      (c) =>
        c.body.kind === 'mcp' &&
        c.body.server === MCP_SERVER &&
        c.body.name === tool &&
        c.body.argsCanonical === args &&
        described(c),
    );
    const granted = grants.some(
      (g) =>
        g.kind === 'mcp' &&
        g.tool === `mcp__${MCP_SERVER}__${tool}` &&
        g.args === args &&
        described(ledger.grantCard(g)),
    );
    if (!card && !granted) {
      const as = tool === 'echo' ? ` (while it describes echo as ${JSON.stringify(server.echo)})` : '';
      problems.push(
        `inv7: the MCP server of ${input.root} received ${tool} ${args}${as} with no card allowed for it and no grant`,
      );
    }
    if (tool === 'change_description') {
      const text = (line.args as { text?: unknown } | undefined)?.text;
      if (typeof text === 'string') server.echo = text;
    }
  }
  problems.push(...cardsDescribeEcho(input.fresh, server));
  return problems;
}

/** The answer the session's last answered start card got, if any. */
function lastStartAnswer(all: readonly SessionEvent[], ledger: ConsentLedger): string | null {
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i]!;
    if (e.type === 'card_answer' && ledger.cards.get(e.cardId)?.body.kind === 'mcp_server') return e.answer;
  }
  return null;
}

/** A card for echo shows the description the server gives it now (cards go up after the step's calls). */
function cardsDescribeEcho(fresh: readonly SessionEvent[], server: ServerModel): string[] {
  if (server.echo === null) return [];
  return fresh.flatMap((e) =>
    e.type === 'card' && e.body.kind === 'mcp' && e.body.name === 'echo' && e.body.description !== server.echo
      ? [
          `inv7: card ${e.cardId} describes echo as ${JSON.stringify(e.body.description)}; the server says ${JSON.stringify(server.echo)}`,
        ]
      : [],
  );
}

/**
 * Canonical JSON (RFC 8785) for what the suite's calls carry (objects, strings, finite
 * numbers, booleans): keys sorted by UTF-16 code units, JSON.stringify's strings and
 * numbers. Written here, not taken from the app, so the two can disagree.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
