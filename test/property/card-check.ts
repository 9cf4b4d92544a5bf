/**
 * A card tells the truth about its call: the real path the reference resolves the
 * call's path to (outside, for a read), the digest of the bytes there now, a proposal
 * that is exactly what the call asks for, the argv and real working folder of a command,
 * the tool and exact arguments of an MCP call, the config of an MCP server's start, the
 * launch of an agent's start, and an agent's own request as it sent it. An inside read
 * never gets a card.
 */
import type { AgentAskCardBody, AgentStartCardBody, McpServerCardBody } from '../../shared/cards.js';
import { ASK_OPTIONS, ASK_PREFIX, PROPERTY_AGENT, PROPERTY_START_BODY } from './agent-mode.js';
import type { Tree } from './tree.js';
import { fileBytes } from './tree.js';
import type { CardEvent, ConsentLedger } from './consent-ledger.js';
import { referenceResolve } from './reference-path.js';
import { digestOf, expectedWrite } from './write-reference.js';
import { canonicalJson } from './mcp-check.js';
import { MCP_SERVER, serverArgv, WORKSPACE_MCP_FILE } from './mcp-world.js';
import path from 'node:path';

export async function cardTruthful(
  root: string,
  card: CardEvent,
  ledger: ConsentLedger,
  trees: Tree[],
  blob: (id: string) => Promise<Buffer>,
): Promise<string[]> {
  const body = card.body;
  if (body.kind === 'mcp_server') return startTruthful(root, card.cardId, body);
  if (body.kind === 'agent_start') return agentStartTruthful(card.cardId, body);
  if (body.kind === 'agent_ask') return agentAskTruthful(card.cardId, body);
  // The property runs have no place of their own: such a card is never theirs.
  if (body.kind === 'place_apply') return [`inv-card: card ${card.cardId} proposes a place's apply`];
  const call = ledger.calls.get(card.toolCallId);
  if (!call) return [];
  const args = (call.args ?? {}) as { path?: string; cwd?: string; argv?: string[] };
  const where = `inv-card: card ${card.cardId} (${call.tool})`;
  if (body.kind === 'mcp') {
    const problems: string[] = [];
    if (body.tool !== call.tool || body.tool !== `mcp__${body.server}__${body.name}` || body.server !== MCP_SERVER) {
      problems.push(`${where} names ${body.tool} (${body.server} / ${body.name})`);
    }
    if (body.argsCanonical !== canonicalJson(call.args ?? {})) problems.push(`${where} binds other arguments`);
    if (jsonOf(body.argsJson) !== JSON.stringify(call.args ?? {})) {
      problems.push(`${where} shows other arguments than the server will receive`);
    }
    return problems;
  }
  if (body.kind === 'command') {
    const ref = await referenceResolve(root, args.cwd ?? '.');
    const problems: string[] = [];
    if (JSON.stringify(body.argv) !== JSON.stringify(args.argv)) problems.push(`${where} shows another argv`);
    if (!ref.ok || !ref.inside || ref.real !== body.cwd) problems.push(`${where} shows cwd ${body.cwd}`);
    return problems;
  }
  const ref = await referenceResolve(root, args.path ?? '.');
  if (!ref.ok || ref.real !== body.path) {
    return [`${where} names ${body.path}, but the call's path resolves to ${ref.ok ? ref.real : ref.why}`];
  }
  if (body.kind === 'read') {
    if (ref.inside) return [`${where} asks about a read inside the workspace`];
    return body.tool === call.tool ? [] : [`${where} names tool ${body.tool}`];
  }
  // The card went up during the step: before its own write landed (an answer can follow at once), or after.
  const bytes = trees.map((t) => fileBytes(t, body.path)).find((b) => digestOf(b) === body.digest);
  if (bytes === undefined) return [`${where} carries digest ${body.digest} for other bytes`];
  const expected = expectedWrite(call.tool, call.args, bytes);
  const proposal = await blob(body.proposalBlob);
  if (expected === null || !expected.equals(proposal)) return [`${where}'s proposal is not what the call asks for`];
  return [];
}

/** A start card shows this session's own config, run confined with network (SPEC §10). */
function startTruthful(root: string, cardId: string, body: McpServerCardBody): string[] {
  const expected = {
    server: MCP_SERVER,
    source: path.join(root, WORKSPACE_MCP_FILE),
    argv: serverArgv(),
    cwd: root,
    envNames: ['MCP_TEST_LOG'],
    confined: true,
    network: true,
  };
  const shown = {
    server: body.server,
    source: body.source,
    argv: body.argv,
    cwd: body.cwd,
    envNames: body.envNames,
    confined: body.sandbox?.confined,
    network: body.sandbox?.confined === true ? body.sandbox.network : undefined,
  };
  return JSON.stringify(shown) === JSON.stringify(expected)
    ? []
    : [`inv-card: start card ${cardId} shows ${JSON.stringify(shown)}, not ${JSON.stringify(expected)}`];
}

/**
 * An agent's start card shows exactly the launch its driver was given (agent-mode.ts); the
 * runner never starts one, so in its histories no such card can match.
 */
function agentStartTruthful(cardId: string, body: AgentStartCardBody): string[] {
  return JSON.stringify(body) === JSON.stringify(PROPERTY_START_BODY)
    ? []
    : [`inv-card: agent start card ${cardId} shows ${JSON.stringify(body)}, not the driver's launch`];
}

/** An agent's own request shows its words and its options as the puppet agent sent them. */
function agentAskTruthful(cardId: string, body: AgentAskCardBody): string[] {
  const sent =
    body.agent === PROPERTY_AGENT.id &&
    body.label === PROPERTY_AGENT.label &&
    body.toolKind === 'execute' &&
    body.title.startsWith(ASK_PREFIX) &&
    JSON.stringify(body.options) === JSON.stringify(ASK_OPTIONS);
  return sent ? [] : [`inv-card: agent ask card ${cardId} shows ${JSON.stringify(body)}, which the agent never sent`];
}

/** JSON text written compactly, keys in their order; null when it is not JSON. */
function jsonOf(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return null;
  }
}
