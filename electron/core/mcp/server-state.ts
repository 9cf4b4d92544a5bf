/**
 * One MCP server of a session and the states it moves through (SPEC §10). Each transition
 * is a function here, so SessionMcp only decides when; what a state carries (its error, its
 * stderr, whether it was lost) is set in one place.
 *
 *   stopped ─ a user's ──────────────────────────────▶ starting ─▶ ready
 *      └─── a workspace's ─▶ asking ─ allowed ───────▶ starting ─▶ failed (it did not start)
 *                              ├─ denied ─▶ not_allowed (until its config changes)
 *                              ├─ not planned ─▶ failed
 *                              └─ the turn ended ─▶ stopped
 *   ready ─ stopped by itself ─▶ failed and lost: the next turn starts it again
 *   ready, starting ─ stopped (config changed, Restart, the session closed) ─▶ stopped
 *   any ─ Disable ─▶ disabled ─ Enable ─▶ stopped
 */
import type { CommandSandbox } from '../../../shared/cards.js';
import type { McpServerState } from '../../../shared/contract.js';
import { DENIED } from '../gate/permission-gate.js';
import type { ToolDef, ToolResult } from '../tools/tool-def.js';
import { serverFingerprint } from './fingerprint.js';
import type { McpServerConfig } from './mcp-config.js';
import type { ServerConnection } from './server-connection.js';
import { START_DENIED, stoppedBy } from './server-words.js';

export interface McpServer {
  config: McpServerConfig;
  fingerprint: string;
  state: McpServerState;
  connection: ServerConnection | null;
  error?: string;
  stderrTail?: string;
  /** It was ready and then stopped by itself: the next turn starts it again. */
  lost?: boolean;
  /** How its start card said it would run (a workspace stdio server). */
  sandbox?: CommandSandbox;
  defs: ToolDef[];
}

/** A server the config names that has not run yet in this session. */
export function newServer(config: McpServerConfig, disabled: boolean): McpServer {
  return {
    config,
    fingerprint: serverFingerprint(config),
    state: disabled ? 'disabled' : 'stopped',
    connection: null,
    defs: [],
  };
}

/**
 * Whether the next turn should start it: stopped, or lost since it ran. A start the person
 * denied for this exact config (`denied`, the fingerprint they denied) is not asked again:
 * the server becomes not_allowed instead.
 */
export function startDue(server: McpServer, denied: string | undefined): boolean {
  if (server.state === 'failed') return server.lost === true;
  if (server.state !== 'stopped') return false;
  if (denied !== server.fingerprint) return true;
  server.state = 'not_allowed';
  server.error = START_DENIED;
  return false;
}

export function toAsking(server: McpServer): void {
  server.state = 'asking';
}

/** Its start card's wait ended; a card still open (the turn ended) leaves it stopped. */
export function cardClosed(server: McpServer): void {
  if (server.state === 'asking') server.state = 'stopped';
}

/**
 * The gate did not start it: denied, or its config could not be planned. A turn stopped
 * while asking leaves it stopped, to be asked again, with nothing to say.
 */
export function startRefused(server: McpServer, result: ToolResult, aborted: boolean): void {
  if (server.state !== 'stopped' || result.ok) return;
  const denied = result.error === DENIED;
  server.state = aborted ? 'stopped' : denied ? 'not_allowed' : 'failed';
  if (!aborted) server.error = denied ? START_DENIED : result.error;
}

export function toStarting(server: McpServer): void {
  server.state = 'starting';
  server.lost = false;
  delete server.error;
}

export function toReady(server: McpServer): void {
  server.state = 'ready';
}

/** It did not start, or stopped by itself; its connection is gone. */
export function toFailed(server: McpServer, error: string, stderrTail: string): void {
  server.state = 'failed';
  server.error = error;
  server.stderrTail = stderrTail;
  server.connection = null;
}

/** It was ready and its connection closed by itself: failed, and started again next turn. */
export function toLost(server: McpServer, connection: ServerConnection): void {
  toFailed(server, stoppedBy(connection.closed), connection.stderrTail());
  server.lost = true;
}

/**
 * Takes its connection off it, for the caller to stop. A running or starting server is
 * then stopped; any other keeps its state (failed, not_allowed and disabled say why).
 */
export function detach(server: McpServer): ServerConnection | null {
  const connection = server.connection;
  server.connection = null;
  if (server.state === 'ready' || server.state === 'starting') server.state = 'stopped';
  return connection;
}

/** Settings' Restart: whatever it was, it may start again. */
export function toStopped(server: McpServer): void {
  server.state = 'stopped';
  delete server.error;
}

export function toDisabled(server: McpServer): void {
  server.state = 'disabled';
}

/** Settings' Enable: true when it was disabled, and now may start. */
export function toEnabled(server: McpServer): boolean {
  if (server.state !== 'disabled') return false;
  server.state = 'stopped';
  return true;
}
