/**
 * The few words a compact tool row shows: `read_file src/a.ts`, `run npm test`, and for an
 * MCP tool its arguments as compact JSON, cut.
 */
import { compactJson } from '../cards/compact-json';
import { isMcpToolName } from '../../../../shared/mcp-tool-name';

export type ToolSummary =
  | { kind: 'argv'; argv: string[] }
  | { kind: 'text'; text: string }
  /** JSON, where quotes are ordinary and only what could hide is marked. */
  | { kind: 'json'; text: string };

function field(args: unknown, name: string): unknown {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

export function toolSummary(tool: string, args: unknown): ToolSummary {
  const argv = field(args, 'argv');
  if (tool === 'run' && Array.isArray(argv) && argv.every((a) => typeof a === 'string')) {
    return { kind: 'argv', argv: argv as string[] };
  }
  if (field(args, 'blob') !== undefined) return { kind: 'text', text: '(arguments stored separately)' };
  // An MCP tool's arguments are the server's own schema: no field means "path" there.
  if (isMcpToolName(tool)) return { kind: 'json', text: args === undefined ? '' : compactJson(args) };
  const path = field(args, 'path');
  const pattern = field(args, 'pattern');
  const parts = [pattern, path].filter((p): p is string => typeof p === 'string');
  if (parts.length > 0) return { kind: 'text', text: parts.join(' in ') };
  const name = field(args, 'name') ?? field(args, 'question');
  return { kind: 'text', text: typeof name === 'string' ? name : '' };
}
