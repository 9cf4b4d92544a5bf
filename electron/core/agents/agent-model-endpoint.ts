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
 * The variable that points each agent at a model server. Codex and opencode take theirs
 * from config files, not a variable: they are never pointed at it here.
 */
const BASE_URL_VARIABLES: Partial<Record<AgentId, string>> = {
  'claude-code': 'ANTHROPIC_BASE_URL',
  'gemini-cli': 'GOOGLE_GEMINI_BASE_URL',
};

/** The variable that points `id` at a model server, when it has one. */
export function baseUrlVariableOf(id: AgentId): string | undefined {
  return BASE_URL_VARIABLES[id];
}

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

/** What the core's `agentModel` option takes: the endpoint for each agent that can be pointed at it. */
export function agentModelOf(
  endpoint: { port: number } | undefined,
): ((agent: SessionAgent) => { endpoint: ModelEndpoint; baseUrlVariable: string } | undefined) | undefined {
  if (!endpoint) return undefined;
  return (agent) => {
    const baseUrlVariable = baseUrlVariableOf(agent.id);
    return baseUrlVariable ? { endpoint: { port: endpoint.port }, baseUrlVariable } : undefined;
  };
}
