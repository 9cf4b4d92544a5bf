/**
 * An MCP tool as the model names it, mcp__<server>__<tool> (SPEC §10), split back into its
 * server and tool for a row's label. A server's name may itself hold "__", so the server
 * the result names (its details) wins; before the result, the first "__" splits.
 */
const PREFIX = 'mcp__';

export interface McpToolName {
  server: string;
  tool: string;
}

export function isMcpTool(tool: string): boolean {
  return tool.startsWith(PREFIX);
}

export function mcpToolName(tool: string, details?: Record<string, unknown>): McpToolName | null {
  if (!isMcpTool(tool)) return null;
  const rest = tool.slice(PREFIX.length);
  const named = details?.server;
  if (typeof named === 'string' && named !== '' && rest.startsWith(`${named}__`)) {
    return { server: named, tool: rest.slice(named.length + 2) };
  }
  const split = rest.indexOf('__');
  if (split <= 0) return { server: rest, tool: '' };
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}
