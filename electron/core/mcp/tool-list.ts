/**
 * A session's MCP tools as the model's tool definitions (SPEC §10): each server's tools,
 * named mcp__<server>__<tool> by shared/mcp-tool-name.ts, and the one list of all the
 * running servers' tools that joins the session's own.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { mcpToolName } from '../../../shared/mcp-tool-name.js';
import type { ToolDef } from '../tools/tool-def.js';
import { toolFingerprint } from './fingerprint.js';
import { mcpToolDef, type McpToolSource } from './mcp-tool-def.js';
import type { ListedTools } from './pin-fold.js';
import type { McpServer } from './server-state.js';

/** What each of a server's tools needs of the session, beyond the server itself. */
export type ToolSession = Pick<McpToolSource, 'allowedShape' | 'onLost' | 'callTimeoutMs'>;

export interface ServerTools {
  defs: ToolDef[];
  /** Each tool's fingerprint by its model name, for the pin fold to compare with the last listing. */
  listed: ListedTools;
}

/** A server's tools as it lists them now, through its connection. */
export function serverTools(
  server: Pick<McpServer, 'config' | 'fingerprint'>,
  connection: McpToolSource['connection'],
  tools: readonly Tool[],
  session: ToolSession,
): ServerTools {
  const name = server.config.name;
  const defs: ToolDef[] = [];
  const listed = new Map<string, string>();
  for (const tool of tools) {
    const modelName = mcpToolName(name, tool.name);
    if (listed.has(modelName)) continue; // two tools would share one name ("a.b" and "a_b")
    listed.set(
      modelName,
      toolFingerprint(tool.name, { description: tool.description ?? '', inputSchema: tool.inputSchema }),
    );
    defs.push(
      mcpToolDef(modelName, tool, { server: name, serverFingerprint: server.fingerprint, connection, ...session }),
    );
  }
  return { defs, listed };
}

/**
 * The ready servers' tools, in the config's order. While none changed this is `before`
 * itself: Tools compares the list by identity, so the model's tool block stays byte for byte.
 */
export function readyTools(servers: Iterable<McpServer>, before: readonly ToolDef[]): readonly ToolDef[] {
  const next = [...servers].filter((s) => s.state === 'ready').flatMap((s) => s.defs);
  const same = next.length === before.length && next.every((d, i) => d === before[i]);
  return same ? before : Object.freeze(next);
}
