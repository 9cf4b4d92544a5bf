/**
 * How an MCP tool is named to the model: mcp__<server>__<tool> (SPEC §10), within what
 * the providers accept for a tool name (letters, digits, _ and -, at most 64).
 */
export const MCP_TOOL_PREFIX = 'mcp__';

const PROVIDER_NAME_MAX = 64;

/** The model's name for a server's tool, or null when no valid name fits. */
export function modelToolName(server: string, tool: string): string | null {
  const name = `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return name.length <= PROVIDER_NAME_MAX ? name : null;
}

export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}
