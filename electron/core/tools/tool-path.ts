/**
 * How a tool reaches a path: resolved through the workspace when planned, resolved again
 * just before it runs (SPEC §2, Paths), and shown to the model relative to the workspace
 * when inside, absolute when outside.
 */
import { promises as fs, type Stats } from 'node:fs';
import { sameFile } from '../paths/regular-file.js';
import { PathEscapeError, PathInputError, type ResolvedPath } from '../paths/workspace.js';
import { StalePlanError, ToolError, type ToolContext } from './tool-def.js';

/** Resolves a tool's path argument; an escape or a malformed path becomes a ToolError with the same words. */
export async function resolveToolPath(ctx: ToolContext, input: string): Promise<ResolvedPath> {
  try {
    return await ctx.workspace.resolve(input);
  } catch (err) {
    if (err instanceof PathEscapeError || err instanceof PathInputError) throw new ToolError(err.message);
    throw err;
  }
}

/** For the read tools: resolves the path and stats what it names; a missing path is a ToolError. */
export async function resolveExisting(
  ctx: ToolContext,
  input: string,
  tool: string,
): Promise<{ target: ResolvedPath; shown: string; stats: Stats }> {
  const target = await resolveToolPath(ctx, input);
  const shown = shownPath(ctx, target);
  const stats = target.exists ? await fs.stat(target.real).catch(() => null) : null;
  if (stats === null) throw new ToolError(`${tool}: "${shown}" does not exist`);
  return { target, shown, stats };
}

/**
 * Resolves the planned path again. When it no longer lands where the plan (and so the
 * card) said, throws StalePlanError: the answer was about another file.
 */
export async function recheckTarget(ctx: ToolContext, planned: ResolvedPath): Promise<ResolvedPath> {
  let now: ResolvedPath;
  try {
    now = await ctx.workspace.resolve(planned.input);
  } catch (err) {
    throw new StalePlanError(`"${planned.input}" no longer resolves as planned: ${(err as Error).message}`);
  }
  if (now.real !== planned.real) {
    throw new StalePlanError(`"${planned.input}" now resolves to ${now.real}, not ${planned.real} as planned`);
  }
  return now;
}

/**
 * What sits at the planned path just before a read that follows the path (readdir,
 * ripgrep): it must still be a file or folder, not a link or anything else swapped in.
 */
export async function pinTarget(planned: ResolvedPath): Promise<Stats> {
  const now = await fs.lstat(planned.real);
  if (!now.isFile() && !now.isDirectory()) {
    throw new StalePlanError(`"${planned.input}" is no longer the file or folder it was when planned`);
  }
  return now;
}

/**
 * After such a read: the path must resolve as planned still, to the very file or folder
 * pinned before. A folder swapped for a link and back while the read ran is the one race
 * this cannot see; anything still in place afterwards is caught, and the answer dropped.
 */
export async function confirmUnmoved(
  ctx: ToolContext,
  planned: ResolvedPath,
  pinned: Stats,
  doing: string,
): Promise<void> {
  await recheckTarget(ctx, planned);
  const now = await fs.lstat(planned.real).catch(() => null);
  if (now === null || !sameFile(now, pinned)) {
    throw new StalePlanError(`"${planned.input}" was moved or replaced while it was being ${doing}`);
  }
}

/** Workspace-relative for a path inside, absolute for a deliberate reach outside. */
export function shownPath(ctx: ToolContext, target: ResolvedPath): string {
  return target.inside ? ctx.workspace.relative(target.real) : target.real;
}
