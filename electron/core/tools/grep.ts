/**
 * grep (SPEC §2): a ripgrep search returning `path:line:text`. It follows .gitignore,
 * never descends into .git, skips binary files, cuts long lines, and keeps the first
 * GREP_MAX_MATCHES matches while counting the rest.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GREP_LINE_MAX_CHARS, GREP_MAX_MATCHES } from '../../../shared/limits.js';
import { ignoreFlags } from './ignore-scope.js';
import { readPlanFor } from './plan-kind.js';
import { RgOutputReader } from './rg-output.js';
import { runRipgrep, type RipgrepExit } from './ripgrep.js';
import { recheckTarget, resolveExisting, shownPath } from './tool-path.js';
import {
  ToolError,
  type ExecContext,
  type Plan,
  type ReadPlan,
  type ToolContext,
  type ToolDef,
  type ToolResult,
} from './types.js';

export const grepArgsSchema = z.strictObject({
  pattern: z.string().min(1, 'must be a non-empty pattern'),
  path: z.string().min(1, 'must be a non-empty path').optional(),
  glob: z.string().min(1, 'must be a non-empty glob').optional(),
  case_insensitive: z.boolean().optional(),
  fixed_string: z.boolean().optional(),
});

export type GrepArgs = z.infer<typeof grepArgsSchema>;

const DESCRIPTION = `Search file contents with a regular expression (ripgrep). Returns one "path:line:text" per matching line.
- pattern: a Rust-regex (like PCRE without look-around or backreferences), e.g. "fn\\s+main" or "TODO|FIXME". Set fixed_string to search for the text literally.
- path: a folder or file to search, relative to the workspace (or absolute); default the whole workspace.
- glob: only files whose path matches, relative to the workspace (or to the searched folder, outside it), e.g. "*.ts", "src/**/*.test.ts", "!*.min.js".
- case_insensitive: ignore case.
- Files ignored by .gitignore, the .git folder and binary files are skipped. Each line is cut at ${GREP_LINE_MAX_CHARS} characters (ending in "…").
- At most ${GREP_MAX_MATCHES} matching lines; when there are more, the result says how many more. Narrow the pattern, path or glob to see them.`;

/** ripgrep's preview of a long line, in bytes: always enough for GREP_LINE_MAX_CHARS characters. */
const PREVIEW_BYTES = GREP_LINE_MAX_CHARS * 4;

/** The fixed part of the command line; the benchmark runs raw ripgrep with the same. */
export const GREP_BASE_FLAGS: readonly string[] = [
  '--no-config',
  '--color=never',
  '--no-heading',
  '--with-filename',
  '--line-number',
  '--null',
  '--hidden',
  `--max-columns=${PREVIEW_BYTES}`,
  '--max-columns-preview',
];

export const grepTool: ToolDef<GrepArgs> = {
  name: 'grep',
  description: DESCRIPTION,
  schema: grepArgsSchema,
  plan: planGrep,
  execute: executeGrep,
};

async function planGrep(args: GrepArgs, ctx: ToolContext): Promise<Plan> {
  const { target, shown } = await resolveExisting(ctx, args.path ?? '.', 'grep');
  const below = target.inside ? ctx.workspace.relative(target.real) : target.real;
  if (below.split(path.sep).includes('.git'))
    throw new ToolError(`grep: "${shown}" is inside .git, which grep never searches`);
  return { kind: 'read', tool: 'grep', target, args };
}

async function executeGrep(p: Plan, ctx: ToolContext, exec: ExecContext): Promise<ToolResult> {
  const plan = readPlanFor(p, 'grep');
  await recheckTarget(ctx, plan.target);
  const { args: rgArgs, cwd } = await ripgrepCommand(plan, ctx);
  const reader = new RgOutputReader(GREP_MAX_MATCHES, GREP_LINE_MAX_CHARS);
  const run = { cwd, env: ctx.commandEnv, signal: exec.signal };
  const exit = await runRipgrep(rgArgs, run, (chunk) => reader.feed(chunk));
  return grepResult(reader, exit, shownPath(ctx, plan.target));
}

/** The argv and working folder for a plan. Exported for the benchmark, which runs the same command raw. */
export async function ripgrepCommand(plan: ReadPlan, ctx: ToolContext): Promise<{ args: string[]; cwd: string }> {
  const args = plan.args as GrepArgs;
  const real = plan.target.real;
  const searchDir = (await fs.stat(real)).isDirectory() ? real : path.dirname(real);
  const cwd = plan.target.inside ? ctx.workspace.root : searchDir;
  const rel = path.relative(cwd, real);
  return {
    args: [
      ...GREP_BASE_FLAGS,
      ...(args.case_insensitive ? ['--ignore-case'] : []),
      ...(args.fixed_string ? ['--fixed-strings'] : []),
      ...(args.glob !== undefined ? ['--glob', args.glob] : []),
      // Last, so no user glob can re-include it.
      '--glob=!.git',
      ...(await ignoreFlags(cwd, searchDir)),
      '--regexp',
      args.pattern,
      '--',
      // Inside, paths are given relative to the root so ripgrep prints them workspace-relative.
      ...(plan.target.inside ? (rel === '' ? [] : [rel]) : [real]),
    ],
    cwd,
  };
}

function grepResult(reader: RgOutputReader, exit: RipgrepExit, shown: string): ToolResult {
  if (exit.code === null) return { ok: false, error: `grep was stopped (${exit.signal ?? 'cancelled'})` };
  const total = reader.totalMatches;
  if (exit.code === 2 && total === 0) return { ok: false, error: exit.stderr.trim() || 'ripgrep failed' };
  const lines = [...reader.matches];
  if (total === 0) lines.push(`No matches in "${shown}".`);
  const more = total - reader.matches.length;
  if (more > 0) {
    lines.push(`[grep: ${reader.matches.length} of ${total} matching lines shown; ${more} more not shown]`);
  }
  for (const note of reader.notes) lines.push(`[grep: ${note}]`);
  if (exit.code === 2) lines.push(`[grep: ripgrep also reported: ${firstLine(exit.stderr)}]`);
  return { ok: true, output: lines.join('\n'), details: { total, shown: reader.matches.length, more } };
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}
