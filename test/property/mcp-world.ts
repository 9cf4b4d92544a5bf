/**
 * The MCP part of a history's world (SPEC §10): each session's workspace names the repo's
 * test server as `t` in its .mcp.json, with a log of its own (in the layout's mcpLogs
 * folder, outside the watched tree). The server writes a line to it when it starts and
 * for every tools/call it receives, before handling it: what reached the server, seen
 * from the server's side.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { History } from './history.js';
import type { Layout } from './world.js';

export const MCP_SERVER = 't';
export { TEST_SERVER } from '../mcp-server/test-server-path.js';
import { TEST_SERVER } from '../mcp-server/test-server-path.js';
/** How the test server describes `echo` when it starts (change_description changes it). */
export const DEFAULT_ECHO = 'Echoes back the input';
export const WORKSPACE_MCP_FILE = '.mcp.json';

/** The log session s's server writes, in the layout's mcpLogs folder. */
export function mcpLog(mcpLogs: string, s: number): string {
  return path.join(mcpLogs, `s${s}.jsonl`);
}

/** The argv a start card must show: the config's command and args. */
export function serverArgv(): string[] {
  return [process.execPath, TEST_SERVER];
}

/** The .mcp.json of each session's workspace (session 1's is the nested `sub`, see History.mcp). */
export async function writeMcpConfigs(layout: Layout, second: History['second']): Promise<void> {
  // Two sessions on one .mcp.json would log to one file, and a line could not be told apart.
  if (second === 'same') throw new Error('an MCP history needs session 1 in the nested folder');
  for (const [s, folder] of [layout.ws, path.join(layout.ws, 'sub')].entries()) {
    const server = { command: process.execPath, args: [TEST_SERVER], env: { MCP_TEST_LOG: mcpLog(layout.mcpLogs, s) } };
    await fs.writeFile(
      path.join(folder, WORKSPACE_MCP_FILE),
      JSON.stringify({ mcpServers: { [MCP_SERVER]: server } }, null, 2),
    );
  }
}

/** One line of the server's log: a start, or a call as it arrived. */
export interface ServerLine {
  event?: string;
  pid: number;
  tool?: string;
  args?: unknown;
  ts: number;
}

/** Reads one session's server log as it grows: each call returns the lines not returned before. */
export class ServerLog {
  private consumed = 0;

  constructor(readonly file: string) {}

  async fresh(): Promise<ServerLine[]> {
    const text = await fs.readFile(this.file, 'utf8').catch(() => '');
    // Only whole lines: the server writes each with one append, but a look may come mid-write.
    const lines = text.split('\n').slice(0, -1);
    const out = lines.slice(this.consumed).map((l) => JSON.parse(l) as ServerLine);
    this.consumed = lines.length;
    return out;
  }
}
