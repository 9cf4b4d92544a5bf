/**
 * The sandbox's view a grep runs in (SPEC §9, the app's own helpers): the searched scope
 * read-only, in a home emptied as a command's is, with the data folder and secret stores
 * hidden and no network. ripgrep walks subfolders by path, so a confined process that
 * swaps a folder for a link to `~/.ssh` between two of its steps would have it read the
 * person's keys; in this view the link leads into the empty home.
 *
 * Besides the scope, the view shows only what ripgrep reads to give the same answer as
 * before: its own program, and the ignore rules above the scope that it honours inside a
 * git repository (each ancestor's ignore files, and its `.git` as the marker ripgrep
 * looks for, by `info/exclude` or `HEAD` alone, never the repository's config), and the
 * person's global git ignore file at its default place.
 */
import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Confine } from '../process/process-group.js';
import { readOnlyProfile } from '../sandbox/helper-view.js';
import { ripgrepPath } from './ripgrep.js';
import type { ToolContext } from './tool-def.js';

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

/** ripgrep's folder, real: in a packaged app it is in app.asar.unpacked, which may lie under the home. */
const RIPGREP_FOLDER = realFolderOf(ripgrepPath);

/** The view for a search whose working folder (the scope) is `scope`; null where no sandbox can run. */
export async function grepView(ctx: ToolContext, scope: string): Promise<Confine | null> {
  const { sandbox } = ctx.sandbox;
  if (!(await sandbox.availability()).available) return null;
  // All at once: this is on the way of every grep.
  const [command, above, global] = await Promise.all([
    sandbox.profile(ctx.workspace.root, { network: false, git: false, toolchains: false }),
    rulesAbove(scope),
    globalIgnore(ctx),
  ]);
  return { sandbox, profile: readOnlyProfile(command, [scope, RIPGREP_FOLDER, ...above, ...global]) };
}

async function rulesAbove(scope: string): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = path.dirname(scope); folders.at(-1) !== dir; dir = path.dirname(dir)) folders.push(dir);
  const found = await Promise.all(
    folders.flatMap((dir) => [
      ...IGNORE_FILES.map(async (name) => ((await isFile(path.join(dir, name))) ? [path.join(dir, name)] : [])),
      gitMarker(path.join(dir, '.git')),
    ]),
  );
  return found.flat();
}

/**
 * What makes `.git` there for ripgrep: the file itself (a worktree), or one harmless file
 * in the folder; an empty folder as it is (it holds nothing to read).
 */
async function gitMarker(dotGit: string): Promise<string[]> {
  const st = await fs.lstat(dotGit).catch(() => null);
  if (st?.isFile()) return [dotGit];
  if (!st?.isDirectory()) return [];
  for (const inside of [path.join('info', 'exclude'), 'HEAD']) {
    if (await isFile(path.join(dotGit, inside))) return [path.join(dotGit, inside)];
  }
  return (await fs.readdir(dotGit).catch(() => ['?'])).length === 0 ? [dotGit] : [];
}

async function globalIgnore(ctx: ToolContext): Promise<string[]> {
  const home = ctx.commandEnv.HOME;
  if (!home || !path.isAbsolute(home)) return [];
  const file = path.join(home, '.config', 'git', 'ignore');
  return (await isFile(file)) ? [file] : [];
}

async function isFile(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isFile() ?? false;
}

function realFolderOf(file: string): string {
  try {
    return path.dirname(realpathSync(file));
  } catch {
    return path.dirname(file);
  }
}
