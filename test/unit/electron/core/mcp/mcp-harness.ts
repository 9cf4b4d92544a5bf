/**
 * MCP servers for the core's tests: the repo's own test server (which logs every call it
 * receives, so a test can prove from the server's side what reached it) and the reference
 * servers installed as devDependencies, written into a workspace's .mcp.json or the
 * user's mcp.json.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../../../', import.meta.url));

export { TEST_SERVER } from '../../../../mcp-server/test-server-path.js';
import { TEST_SERVER } from '../../../../mcp-server/test-server-path.js';
export const EVERYTHING_SERVER = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = path.join(repo, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
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
