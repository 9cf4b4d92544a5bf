/**
 * An MCP tool's name as the model sees it, `mcp__<server>__<tool>` (SPEC §10), made and
 * read in this one place for the core and the renderer. Providers accept letters, digits,
 * `_` and `-`, at most 64 characters. A longer name is cut and given a hash suffix of the
 * whole, as Codex does, so that a server's long tool is offered rather than dropped, and
 * two long names that share a start stay apart. The hash is FNV-1a, written out here
 * because shared/ imports nothing (no node:crypto in the renderer); it only tells names
 * apart, it guards nothing.
 */

export const MCP_TOOL_PREFIX = 'mcp__';
/** The longest tool name the providers accept. */
export const MODEL_TOOL_NAME_MAX = 64;
/** "_" and 8 hex digits. */
const HASH_SUFFIX_LENGTH = 9;

export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}

/** The model's name for a server's tool: characters providers refuse become "_", and a long one is cut with a hash. */
export function mcpToolName(server: string, tool: string): string {
  const name = `${MCP_TOOL_PREFIX}${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MODEL_TOOL_NAME_MAX) return name;
  const hash = fnv1a32(`${server}\u0000${tool}`).toString(16).padStart(8, '0');
  return `${name.slice(0, MODEL_TOOL_NAME_MAX - HASH_SUFFIX_LENGTH)}_${hash}`;
}

export interface McpToolParts {
  server: string;
  tool: string;
}

/**
 * The server and tool a model's name stands for, for a label. A server's name may itself
 * hold "__", so the server that a result names wins; without one the first "__" splits.
 * Null when it is not an MCP tool's name.
 */
export function mcpToolParts(name: string, server?: unknown): McpToolParts | null {
  if (!isMcpToolName(name)) return null;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  if (typeof server === 'string' && server !== '' && rest.startsWith(`${server}__`)) {
    return { server, tool: rest.slice(server.length + 2) };
  }
  const split = rest.indexOf('__');
  if (split <= 0) return { server: rest, tool: '' };
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}

function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
