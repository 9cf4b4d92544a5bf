/**
 * A model endpoint on this machine that the person points external agents at (a local
 * model server, or a test's fake): `npm run serve -- --agent-model-endpoint <url>`, or
 * GATEHOUSE_AGENT_MODEL_ENDPOINT for the desktop app. Only loopback: the relay that bridges
 * it into the jail dials 127.0.0.1, and a host elsewhere would be a way around the proxy's
 * domain list. Each agent is pointed at it through its own base URL variable.
 */
import type { AgentId, SessionAgent } from '../../../shared/agents.js';
import type { ErrorKind } from '../error-kind.js';
import type { ModelEndpoint } from './agent-start-card.js';

/** The environment variable the desktop app reads it from. */
export const AGENT_MODEL_ENDPOINT_VARIABLE = 'GATEHOUSE_AGENT_MODEL_ENDPOINT';

/**
 * The variable that points each agent at a model server, for the key saved in Gatehouse
 * (the keyed relay to its model host): the agents whose relay is known to work.
 */
const BASE_URL_VARIABLES: Partial<Record<AgentId, string>> = {
  'claude-code': 'ANTHROPIC_BASE_URL',
  'gemini-cli': 'GOOGLE_GEMINI_BASE_URL',
};

/** The variable that points `id` at a model server, when it has one. */
export function baseUrlVariableOf(id: AgentId): string | undefined {
  return BASE_URL_VARIABLES[id];
}

/** How an agent is pointed at a model server on this machine: its variable, and the path its client expects there. */
export interface LocalModelWire {
  /** None for an agent whose config file in its HOME names the endpoint (Codex: agent-holds.ts). */
  baseUrlVariable?: string;
  /** Added to the endpoint's URL inside: the AI SDK's Anthropic client (opencode's) posts to `<base>/messages`. */
  basePath?: string;
}

/**
 * Every agent's way to a model server on this machine, measured against the fake model:
 * Claude Code posts to `$ANTHROPIC_BASE_URL/v1/messages`; Codex 0.166 reads no base URL from
 * its environment, so its config.toml names the endpoint as a provider of its own (it posts
 * to `<endpoint>/v1/responses`); opencode 1.18 posts to `$ANTHROPIC_BASE_URL/messages`, so
 * its base carries `/v1`.
 */
const LOCAL_MODEL_WIRES: Record<AgentId, LocalModelWire> = {
  'claude-code': { baseUrlVariable: 'ANTHROPIC_BASE_URL' },
  'gemini-cli': { baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL' },
  codex: {},
  opencode: { baseUrlVariable: 'ANTHROPIC_BASE_URL', basePath: '/v1' },
};

export class AgentModelEndpointError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'AgentModelEndpointError';
}

/** The loopback port named by `value` (`http://127.0.0.1:PORT` or `http://localhost:PORT`); throws in words otherwise. */
export function parseAgentModelEndpoint(value: string): { port: number } {
  const shown = JSON.stringify(value.slice(0, 200));
  const bad = (why: string) =>
    new AgentModelEndpointError(`the agents’ model endpoint ${shown} ${why}; give http://127.0.0.1:<port>`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad('is not a URL');
  }
  if (url.protocol !== 'http:') throw bad('must be plain http:// (it is reached on this machine only)');
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw bad('is not on this machine’s loopback');
  if (url.username || url.password) throw bad('must not carry a user name or password');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw bad('must name no path (each agent adds its own)');
  }
  // An explicit port: the URL parser drops :80, and a server on this machine is on a port of its own.
  const port = Number(url.port);
  if (!url.port || !Number.isInteger(port) || port < 1 || port > 65535) throw bad('names no port');
  return { port };
}

/** GATEHOUSE_AGENT_MODEL_ENDPOINT's port, none when unset; a bad value throws in words naming the variable. */
export function agentModelEndpointFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): { port: number } | undefined {
  const value = env[AGENT_MODEL_ENDPOINT_VARIABLE];
  if (value === undefined || value === '') return undefined;
  try {
    return parseAgentModelEndpoint(value);
  } catch (err) {
    throw new AgentModelEndpointError(`${AGENT_MODEL_ENDPOINT_VARIABLE}: ${(err as Error).message}`, { cause: err });
  }
}

/** What the core's `agentModel` option takes: the endpoint for each agent, through its own variable. */
export function agentModelOf(
  endpoint: { port: number } | undefined,
): ((agent: SessionAgent) => ({ endpoint: ModelEndpoint } & LocalModelWire) | undefined) | undefined {
  if (!endpoint) return undefined;
  return (agent) => {
    // A log from another build may name an agent this one does not know: it is pointed nowhere.
    const wire = LOCAL_MODEL_WIRES[agent.id] as LocalModelWire | undefined;
    return wire ? { endpoint: { port: endpoint.port }, ...wire } : undefined;
  };
}
