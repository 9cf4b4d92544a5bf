/** The few words a compact tool row shows: `read_file src/a.ts`, `run npm test`. */
export type ToolSummary = { kind: 'argv'; argv: string[] } | { kind: 'text'; text: string };

function field(args: unknown, name: string): unknown {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

export function toolSummary(tool: string, args: unknown): ToolSummary {
  const argv = field(args, 'argv');
  if (tool === 'run' && Array.isArray(argv) && argv.every((a) => typeof a === 'string')) {
    return { kind: 'argv', argv: argv as string[] };
  }
  if (field(args, 'blob') !== undefined) return { kind: 'text', text: '(arguments stored separately)' };
  const path = field(args, 'path');
  const pattern = field(args, 'pattern');
  const parts = [pattern, path].filter((p): p is string => typeof p === 'string');
  if (parts.length > 0) return { kind: 'text', text: parts.join(' in ') };
  const name = field(args, 'name') ?? field(args, 'question');
  return { kind: 'text', text: typeof name === 'string' ? name : '' };
}
