/**
 * list_dir (SPEC §2): one level of names, sorted. A folder ends in "/"; a symlink is
 * named as a link (`name -> target`) and never followed, so a broken one shows too.
 */
import { constants, promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LIST_MAX_NAMES } from '../../../shared/limits.js';
import { readPlanFor } from './plan-kind.js';
import { confirmUnmoved, pinTarget, recheckTarget, resolveExisting, shownPath } from './tool-path.js';
import { StalePlanError, ToolError, type Plan, type ToolContext, type ToolDef, type ToolResult } from './tool-def.js';

export const listDirArgsSchema = z.strictObject({
  path: z.string().min(1, 'must be a non-empty path').optional(),
});

export type ListDirArgs = z.infer<typeof listDirArgsSchema>;

const DESCRIPTION = `List the names in one folder (not recursive), sorted.
- path: the folder, relative to the workspace (or absolute); default the workspace root ".".
- Folders end in "/". Symbolic links show as "name -> target" and are not followed.
- At most ${LIST_MAX_NAMES} names; when there are more, the result says how many more. Use grep with a glob to find files deeper down.`;

export const listDirTool: ToolDef<ListDirArgs> = {
  name: 'list_dir',
  holds: { file: { how: 'listed' } },
  reaches: 'read',
  description: DESCRIPTION,
  schema: listDirArgsSchema,
  plan: planListDir,
  execute: executeListDir,
};

async function planListDir(args: ListDirArgs, ctx: ToolContext): Promise<Plan> {
  const { target, shown, stats } = await resolveExisting(ctx, args.path ?? '.', 'list_dir');
  if (!stats.isDirectory()) throw new ToolError(`list_dir: "${shown}" is a file, not a folder; use read_file`);
  return { kind: 'read', tool: 'list_dir', target, args };
}

async function executeListDir(p: Plan, ctx: ToolContext): Promise<ToolResult> {
  const plan = readPlanFor(p, 'list_dir');
  await recheckTarget(ctx, plan.target);
  const shown = shownPath(ctx, plan.target);
  // readdir follows whatever the path holds when it runs: pinned here, confirmed after.
  const pinned = await pinTarget(plan.target);
  const folder = await openPlannedFolder(plan.target.real, shown);
  try {
    const entries = await fs.readdir(folder.path, { withFileTypes: true });
    await confirmUnmoved(ctx, plan.target, pinned, 'listed');
    return await describeListing(entries, folder.path, shown);
  } finally {
    await folder.close();
  }
}

async function describeListing(entries: Dirent[], dir: string, shown: string): Promise<ToolResult> {
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const listed = entries.slice(0, LIST_MAX_NAMES);
  const lines = await Promise.all(listed.map((entry) => describeEntry(dir, entry)));
  const more = entries.length - listed.length;
  if (more > 0) lines.push(`[list_dir: ${listed.length} of ${entries.length} names shown; ${more} more not shown]`);
  if (entries.length === 0) lines.push(`[list_dir: "${shown}" is empty]`);
  return {
    ok: true,
    output: lines.join('\n'),
    details: { path: shown, total: entries.length, shown: listed.length, more },
  };
}

/**
 * The planned folder, held open: a path to read it by that cannot be redirected. A running
 * confined process can swap a folder on the way for a link and back while readdir runs
 * (renameat2's exchange), which the pin and the check after cannot see (the property
 * suite's racer listed a folder outside this way). On Linux the folder is opened without
 * following a last link, the kernel's own name for the descriptor proves it is the
 * planned folder, and it is read through `/proc/self/fd/N`, which is that very folder
 * whatever the path holds meanwhile. Without /proc, the path is read as before, pinned
 * and confirmed.
 */
async function openPlannedFolder(real: string, shown: string): Promise<{ path: string; close(): Promise<void> }> {
  const handle = await fs
    .open(real, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
    .catch((err: NodeJS.ErrnoException) => {
      // A link (ELOOP), a file or nothing where the planned folder was: swapped since.
      if (['ELOOP', 'ENOTDIR', 'ENOENT'].includes(err.code ?? '')) {
        throw new StalePlanError(`"${shown}" is no longer the folder it was when planned`);
      }
      throw err;
    });
  const byFd = `/proc/self/fd/${handle.fd}`;
  const named = await fs.readlink(byFd).catch(() => null);
  if (named !== null && named !== real) {
    await handle.close();
    throw new StalePlanError(`"${shown}" was moved or replaced while it was being listed`);
  }
  return { path: named === null ? real : byFd, close: () => handle.close() };
}

async function describeEntry(dir: string, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (!entry.isSymbolicLink()) return entry.name;
  const target = await fs.readlink(path.join(dir, entry.name)).catch(() => '?');
  return `${entry.name} -> ${target}`;
}
