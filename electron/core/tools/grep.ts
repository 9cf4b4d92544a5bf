/**
 * grep (SPEC §2): a ripgrep search returning `path:line:text`. It follows .gitignore,
 * never descends into .git, skips binary files, cuts long lines, and returns the first
 * GREP_MAX_MATCHES matches. ripgrep is stopped at the next one, which is all it takes to
 * say that there are more: an exact count would mean searching the whole tree.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GREP_LINE_MAX_CHARS, GREP_MAX_MATCHES, GREP_TIME_LIMIT_MS } from '../../../shared/limits.js';
import { grepView } from './grep-view.js';
import { ignoreFlags } from './ignore-scope.js';
import { readPlanFor } from './plan-kind.js';
import { RgOutputReader } from './rg-output.js';
import { runRipgrep, type RipgrepExit } from './ripgrep.js';
import { confirmUnmoved, pinTarget, recheckTarget, resolveExisting, shownPath } from './tool-path.js';
import {
  ToolError,
  type ExecContext,
  type Plan,
  type ReadPlan,
  type ToolContext,
  type ToolDef,
  type ToolResult,
} from './tool-def.js';

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
- At most ${GREP_MAX_MATCHES} matching lines; when there are more, the result says so (not how many). Narrow the pattern, path or glob to see them.
- A search that takes longer than ${GREP_TIME_LIMIT_MS / 1000} s is stopped, and returns the matches found by then.`;

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

export interface GrepToolOptions {
  /** GREP_TIME_LIMIT_MS unless a test needs it short. */
  timeLimitMs?: number;
}

export function createGrepTool(options: GrepToolOptions = {}): ToolDef<GrepArgs> {
  const timeLimitMs = options.timeLimitMs ?? GREP_TIME_LIMIT_MS;
  return {
    name: 'grep',
    holds: { file: { how: 'searched', defaultPath: '.' } },
    reaches: 'read',
    description: DESCRIPTION,
    schema: grepArgsSchema,
    plan: planGrep,
    execute: (plan, ctx, exec) => executeGrep(plan, ctx, exec, timeLimitMs),
  };
}

export const grepTool: ToolDef<GrepArgs> = createGrepTool();

async function planGrep(args: GrepArgs, ctx: ToolContext): Promise<Plan> {
  const { target, shown, stats } = await resolveExisting(ctx, args.path ?? '.', 'grep');
  // ripgrep opens an explicit path whatever it is: a FIFO would block it, a device could
  // do anything on being opened.
  if (!stats.isFile() && !stats.isDirectory()) {
    throw new ToolError(`grep: "${shown}" is neither a regular file nor a folder`);
  }
  const below = target.inside ? ctx.workspace.relative(target.real) : target.real;
  if (below.split(path.sep).includes('.git'))
    throw new ToolError(`grep: "${shown}" is inside .git, which grep never searches`);
  return { kind: 'read', tool: 'grep', target, args };
}

async function executeGrep(p: Plan, ctx: ToolContext, exec: ExecContext, timeLimitMs: number): Promise<ToolResult> {
  const plan = readPlanFor(p, 'grep');
  // In the sandbox's read-only view, so that a link swapped in under the walk leads nowhere
  // (grep-view.ts). Where no sandbox can run, ripgrep runs as the app, as commands then do.
  // Made meanwhile, as it is on the way of every grep; a moved target is caught as before.
  const viewing = scopeOf(plan, ctx).then((scope) => grepView(ctx, scope));
  viewing.catch(() => {}); // awaited below, unless a check before throws
  await recheckTarget(ctx, plan.target);
  // ripgrep follows whatever the path holds when it opens it: pinned here, confirmed after.
  const pinned = await pinTarget(plan.target);
  const [{ args: rgArgs, cwd }, view] = await Promise.all([ripgrepCommand(plan, ctx), viewing]);
  const enough = new AbortController();
  const reader = new RgOutputReader(GREP_MAX_MATCHES, GREP_LINE_MAX_CHARS, () => enough.abort());
  const run = {
    cwd,
    env: ctx.commandEnv,
    signal: exec.signal,
    timeLimitMs,
    enough: enough.signal,
    ...(view ? { view } : {}),
    ...(ctx.spares ? { spares: ctx.spares } : {}),
  };
  const exit = await runRipgrep(rgArgs, run, (chunk) => reader.feed(chunk));
  await confirmUnmoved(ctx, plan.target, pinned, 'searched');
  return grepResult(reader, exit, shownPath(ctx, plan.target), timeLimitMs);
}

/** The folder ripgrep works in and searches within: the workspace root, or outside it the searched folder. */
async function scopeOf(plan: ReadPlan, ctx: ToolContext): Promise<string> {
  return plan.target.inside ? ctx.workspace.root : searchDirOf(plan.target.real);
}

async function searchDirOf(real: string): Promise<string> {
  return (await fs.stat(real)).isDirectory() ? real : path.dirname(real);
}

/** The argv and working folder for a plan. Exported for the benchmark, which runs the same command raw. */
export async function ripgrepCommand(plan: ReadPlan, ctx: ToolContext): Promise<{ args: string[]; cwd: string }> {
  const args = plan.args as GrepArgs;
  const real = plan.target.real;
  const searchDir = await searchDirOf(real);
  const cwd = await scopeOf(plan, ctx);
  const rel = path.relative(cwd, real);
  return {
    args: [
      ...GREP_BASE_FLAGS,
      ...(args.case_insensitive ? ['--ignore-case'] : []),
      ...(args.fixed_string ? ['--fixed-strings'] : []),
      ...(args.glob !== undefined ? ['--glob', args.glob] : []),
      // Last, so no user glob can re-include it.
      '--glob=!.git',
      ...dataDirExclusion(ctx, cwd),
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

/**
 * Keeps ripgrep out of the app's data folder when it lies below its working folder
 * (SPEC §11). ripgrep is only ever handed the planned target, which is in the data folder
 * only when a card allowed that; its walk down from there follows no symlinks, so it can
 * reach the data folder only by its real path, which is what this glob names, anchored
 * ("/…") to the working folder ripgrep matches walked paths against. An override beats
 * every ignore file, and `--iglob`s apply after every `--glob`, so the model's glob
 * cannot re-include it; case is ignored as the data folder check does. Every glob
 * character is escaped, and the trailing "/" keeps a name ending in a space whole.
 */
function dataDirExclusion(ctx: ToolContext, cwd: string): string[] {
  const below = ctx.workspace.dataDirBelow(cwd);
  if (below === null) return [];
  return [`--iglob=!/${below.map(escapeGlob).join('/')}/`];
}

/** A literal path segment for a gitignore-style glob: every glob character backslash-escaped (ripgrep does so on every OS). */
function escapeGlob(segment: string): string {
  return segment.replace(/[\\*?[\]{}!#,\s]/gu, '\\$&');
}

/** ripgrep's words, on exit 2, when every file was filtered out: for the model that is simply no match. */
const NOTHING_SEARCHED = /^rg: No files were searched\b/m;

function grepResult(reader: RgOutputReader, exit: RipgrepExit, shown: string, timeLimitMs: number): ToolResult {
  if (exit.stopped === 'abort') return { ok: false, error: 'grep was stopped: the call was cancelled' };
  if (exit.code === null && exit.stopped === null) {
    return { ok: false, error: `grep was stopped (${exit.signal ?? 'killed'})` };
  }
  const shownCount = reader.matches.length;
  const nothingSearched = exit.code === 2 && NOTHING_SEARCHED.test(exit.stderr);
  if (exit.code === 2 && shownCount === 0 && !nothingSearched) {
    return { ok: false, error: exit.stderr.trim() || 'ripgrep failed' };
  }
  const lines = [...reader.matches];
  const timedOut = exit.stopped === 'time';
  if (shownCount === 0)
    lines.push(timedOut ? `No matches found in "${shown}" before grep was stopped.` : `No matches in "${shown}".`);
  if (reader.more) {
    lines.push(
      `[grep: the first ${shownCount} matching lines are shown, and there are more (not counted). Narrow the pattern, path or glob to see the rest.]`,
    );
  }
  for (const note of reader.notes) lines.push(`[grep: ${note}]`);
  if (nothingSearched) {
    lines.push(
      "[grep: no file was searched: every file there was skipped (ignored by .gitignore, left out by the glob, or inside .git or the app's data folder); binary files are skipped too]",
    );
  } else if (exit.code === 2) {
    lines.push(`[grep: ripgrep also reported: ${firstLine(exit.stderr)}]`);
  }
  if (timedOut) {
    lines.push(
      `[grep: stopped early: the search took longer than ${timeLimitMs / 1000} s; the matches above are only what was found by then. Narrow the path or glob.]`,
    );
  }
  return {
    ok: true,
    output: lines.join('\n'),
    details: { shown: shownCount, more: reader.more, ...(timedOut ? { stoppedEarly: true } : {}) },
  };
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}
