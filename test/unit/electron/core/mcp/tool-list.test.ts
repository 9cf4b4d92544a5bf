/**
 * A session's MCP tools (SPEC §10): each server's tools named mcp__<server>__<tool>, and
 * the running servers' list, which keeps its identity while nothing changed so the model's
 * tool block stays byte for byte.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../../../electron/core/mcp/mcp-config.js';
import type { ServerConnection } from '../../../../../electron/core/mcp/server-connection.js';
import { newServer, type McpServer } from '../../../../../electron/core/mcp/server-state.js';
import { readyTools, serverTools } from '../../../../../electron/core/mcp/tool-list.js';
import type { ToolDef } from '../../../../../electron/core/tools/tool-def.js';

const config = (name: string): McpServerConfig => ({
  name,
  scope: 'user',
  source: '/data/mcp.json',
  transport: { type: 'stdio', command: 'node', args: [], env: {}, cwd: '/data/mcp-cwd' },
});

const tool = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });
const session = { allowedShape: () => undefined, onLost: () => {}, callTimeoutMs: 1000 };
const NO_CONNECTION = {} as ServerConnection; // only a call reaches it

function withTools(name: string, state: McpServer['state'], ...names: string[]): McpServer {
  const server = { ...newServer(config(name), false), state };
  server.defs = serverTools(
    server,
    NO_CONNECTION,
    names.map((n) => tool(n)),
    session,
  ).defs;
  return server;
}

describe("a server's tools", () => {
  it('are named mcp__<server>__<tool>, each with its fingerprint', () => {
    const { defs, listed } = serverTools(
      newServer(config('s'), false),
      NO_CONNECTION,
      [tool('echo', 'Echoes')],
      session,
    );
    expect(defs.map((d) => d.name)).toEqual(['mcp__s__echo']);
    expect(defs[0]?.description).toBe('Echoes');
    expect([...listed.keys()]).toEqual(['mcp__s__echo']);
    expect(listed.get('mcp__s__echo')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keep the first of two whose names would be one ("a.b" and "a_b")', () => {
    const { defs, listed } = serverTools(
      newServer(config('s'), false),
      NO_CONNECTION,
      [tool('a.b', 'first'), tool('a_b', 'second')],
      session,
    );
    expect(defs.map((d) => [d.name, d.description])).toEqual([['mcp__s__a_b', 'first']]);
    expect(listed.size).toBe(1);
  });
});

describe("the running servers' tools", () => {
  it("are the ready servers' tools, in the config's order", () => {
    const servers = [withTools('a', 'ready', 'x'), withTools('b', 'failed', 'y'), withTools('c', 'ready', 'z')];
    expect(readyTools(servers, []).map((d) => d.name)).toEqual(['mcp__a__x', 'mcp__c__z']);
  });

  it('are the same array while nothing changed, and a new frozen one when a server stops', () => {
    const servers = [withTools('a', 'ready', 'x'), withTools('b', 'ready', 'y')];
    const first = readyTools(servers, []);
    expect(readyTools(servers, first)).toBe(first);
    servers[1]!.state = 'stopped';
    const after: readonly ToolDef[] = readyTools(servers, first);
    expect(after).not.toBe(first);
    expect(Object.isFrozen(after)).toBe(true);
    expect(after.map((d) => d.name)).toEqual(['mcp__a__x']);
  });
});
