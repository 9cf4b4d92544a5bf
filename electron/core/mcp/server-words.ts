/**
 * What a person and the model are told of a session's MCP servers (SPEC §10), in one
 * place: the note the model reads each turn, each server as Settings lists it, and the
 * reasons a server did not start or a tool call could not go ahead.
 */
import type { McpServerStatus } from '../../../shared/contract.js';
import type { McpServer } from './server-state.js';
import { shownArgv, shownUrl } from './start-card.js';

export const START_DENIED = 'its start card was denied';

export const noSuchServer = (name: string): string => `no MCP server named "${name}" in this session's config`;
export const goneFromConfig = (name: string, workspaceRoot: string | null): string =>
  `the MCP server "${name}" is no longer in ${workspaceRoot}/.mcp.json`;
export const changedWhileCardOpen = (name: string): string =>
  `the MCP server "${name}" changed while its card was open`;
export const cardOutOfDate = (name: string): string => `the card for "${name}" is out of date; it will be asked again`;
export const startedWith = (tools: number): string => `started, ${tools} tools`;
export const DID_NOT_START = 'it did not start';
export const stoppedBy = (why: string | null): string => `it stopped (${why ?? 'the connection closed'})`;

/** What the model is told of the servers, or null when there are none. */
export function modelNotes(servers: readonly McpServer[]): string | null {
  if (servers.length === 0) return null;
  const unavailable = servers.filter((s) => s.state !== 'ready').map((s) => `"${s.config.name}" (${stateWords(s)})`);
  const lines = [
    "- Tools named mcp__<server>__<tool> come from MCP servers the user configured. Every call waits for the user to allow it, with its exact arguments; a server's own claims (such as read-only) do not change that.",
  ];
  if (unavailable.length)
    lines.push(
      `- MCP servers not available in this turn: ${unavailable.join(', ')}. Do not try to reach them another way.`,
    );
  return lines.join('\n');
}

/** A server as Settings lists it. */
export function serverStatus(s: McpServer): McpServerStatus {
  const t = s.config.transport;
  return {
    name: s.config.name,
    scope: s.config.scope,
    source: s.config.source,
    transport: t.type,
    target: t.type === 'stdio' ? shownArgv(s.config).join(' ') : shownUrl(s.config),
    state: s.state,
    tools: s.defs.map((d) => d.name),
    ...(s.error ? { error: s.error } : {}),
    ...(s.stderrTail ? { stderrTail: s.stderrTail } : {}),
    ...(t.type === 'stdio' ? { confinement: confinementWords(s), confined: runsConfined(s) } : {}),
  };
}

function confinementWords(s: McpServer): string {
  if (s.config.scope === 'user') return 'Unconfined: your own server, started as you configured it';
  return s.sandbox && !s.sandbox.confined ? `Unconfined: ${s.sandbox.reason}` : 'Confined like a command, with network';
}

/** A workspace's stdio server runs in the command sandbox unless its card said it could not. */
function runsConfined(s: McpServer): boolean {
  return s.config.scope === 'workspace' && s.sandbox?.confined !== false;
}

function stateWords(s: McpServer): string {
  switch (s.state) {
    case 'not_allowed':
      return 'the user did not allow it to start';
    case 'disabled':
      return 'disabled by the user';
    case 'failed':
      return s.error ?? 'it failed';
    default:
      return 'not started';
  }
}
