/**
 * An MCP server's state in Settings, in words (SPEC §10): what it is doing, and for a
 * person looking at a failure, why. Words carry the meaning; the mark beside them only
 * repeats it.
 */
import type { McpServerState, McpServerStatus } from '../../../../shared/contract';
import { mcpToolParts } from '../../../../shared/mcp-tool-name';

export const SCOPE_WORDS: Record<McpServerStatus['scope'], string> = {
  workspace: 'Workspace',
  user: 'Yours',
};

export function serverStateWords(server: McpServerStatus): string {
  switch (server.state) {
    case 'stopped':
      return 'Not started yet (starts with the next message)';
    case 'asking':
      return 'Waiting for your answer';
    case 'starting':
      return 'Starting…';
    case 'ready':
      return `Ready · ${server.tools.length} ${server.tools.length === 1 ? 'tool' : 'tools'}`;
    case 'failed':
      return `Failed: ${server.error?.trim() || 'it stopped'}`;
    case 'not_allowed':
      return 'Not allowed (its start card was denied)';
    case 'disabled':
      return 'Disabled';
  }
}

/** A mark that repeats the words, never replaces them. */
export const STATE_MARKS: Record<McpServerState, string> = {
  stopped: '○',
  asking: '!',
  starting: '…',
  ready: '✓',
  failed: '✗',
  not_allowed: '✗',
  disabled: '–',
};

/** A tool's own name, from the model's mcp__<server>__<tool> (read by the one parser in shared/). */
export function shortToolName(server: string, tool: string): string {
  return mcpToolParts(tool, server)?.tool || tool;
}

/** A config file as a person finds it: inside the workspace relative to it, under home with ~. */
export function configPath(path: string, workspace: string | undefined, home: string | undefined): string {
  const strip = (p: string) => p.replace(/\/+$/, '');
  if (workspace) {
    const root = strip(workspace);
    if (path.startsWith(`${root}/`)) return path.slice(root.length + 1);
  }
  if (home && home !== '/') {
    const h = strip(home);
    if (path.startsWith(`${h}/`)) return `~${path.slice(h.length)}`;
  }
  return path;
}
