/**
 * MCP servers for the core's tests: the repo's own test server (which logs every call it
 * receives, so a test can prove from the server's side what reached it) and the reference
 * servers installed as devDependencies, written into a workspace's .mcp.json or the
 * user's mcp.json.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionEvent } from '../../../../../shared/events.js';
import type { Harness } from '../core-harness.js';

const repo = fileURLToPath(new URL('../../../../../', import.meta.url));

export { TEST_SERVER } from '../../../../mcp-server/test-server-path.js';
import { TEST_SERVER } from '../../../../mcp-server/test-server-path.js';
export const EVERYTHING_SERVER = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = path.join(repo, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  type?: 'http';
  url?: string;
  headers?: Record<string, string>;
}

export async function writeMcpJson(file: string, servers: Record<string, ServerEntry>): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify({ mcpServers: servers }, null, 2));
}

/** The test server, logging what it receives to `log`. */
export function testServer(log: string, env: Record<string, string> = {}): ServerEntry {
  return { command: process.execPath, args: [TEST_SERVER], env: { MCP_TEST_LOG: log, ...env } };
}

export interface LoggedLine {
  event?: string;
  pid: number;
  tool?: string;
  args?: Record<string, unknown>;
}

/** What the test server logged: its starts and every call it received. */
export async function serverLog(log: string): Promise<LoggedLine[]> {
  const text = await fs.readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedLine);
}

export async function loggedCalls(log: string): Promise<LoggedLine[]> {
  return (await serverLog(log)).filter((l) => l.tool !== undefined);
}

/**
 * The session's first event after `afterSeq` of one of `types`, e.g. a card or the turn's
 * end: a test that expects a card fails at once, not after a timeout, when the call went
 * through without one.
 */
export async function firstOf<T extends SessionEvent['type']>(
  h: Harness,
  id: string,
  afterSeq: number,
  types: readonly T[],
): Promise<Extract<SessionEvent, { type: T }>> {
  const wanted = new Set<string>(types);
  const until = Date.now() + 20_000;
  for (;;) {
    const found = (await h.events(id)).find((e) => e.seq > afterSeq && wanted.has(e.type));
    if (found) return found as Extract<SessionEvent, { type: T }>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${types.join(' or ')} in session ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The last event of the session so far: what a following firstOf looks after. */
export async function lastSeq(h: Harness, id: string): Promise<number> {
  return (await h.events(id)).at(-1)?.seq ?? 0;
}
