/**
 * What a `git: true` command could still add that the person's git would enter and run
 * code from: a gitlink in the index (`git update-index --cacheinfo 160000,…,vendor/lib`
 * over a `git init vendor/lib` with a `core.fsmonitor`: the person's `git status` went
 * into it) and a repository in `.git/modules` (a submodule's git folder, with a config of
 * its own). `.git` is writable for such a command, so these cannot be read-only; they are
 * compared after the run with before it, and anything new is taken back: the gitlink
 * removed from the index (through the app's git door), the repository removed. The model
 * is told in one line.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readWorkspaceGit } from '../git/workspace-git.js';
import { moduleGitDirs } from './git-places.js';
import { readGitlinks, type GitlinkReader } from './gitlinks.js';

export interface GitState {
  gitlinks: Set<string>;
  /** Relative to `.git/modules`. */
  modules: Set<string>;
}

/** How deep `.git/modules` is compared (as deep as git-places keeps its repositories read-only). */
const MODULE_DEPTH = 4;
const GIT_TIMEOUT_MS = 30_000;

/** The state to compare with after the run; null when the workspace's `.git` is not a folder. */
export async function gitStateOf(workspace: string, gitlinks: GitlinkReader = readGitlinks): Promise<GitState | null> {
  const dotGit = path.join(workspace, '.git');
  const stat = await fs.lstat(dotGit).catch(() => null);
  if (!stat?.isDirectory()) return null;
  const modules = path.join(dotGit, 'modules');
  return {
    gitlinks: new Set(await gitlinks(workspace)),
    modules: new Set(moduleGitDirs(modules, MODULE_DEPTH).map((dir) => path.relative(modules, dir))),
  };
}

/** Takes back what is new since `before`; the line for the model, or null when nothing was. */
export async function takeBackGitGrowth(workspace: string, before: GitState): Promise<string | null> {
  const after = await gitStateOf(workspace);
  if (!after) return null;
  const links = [...after.gitlinks].filter((p) => !before.gitlinks.has(p));
  const modules = [...after.modules].filter((p) => !before.modules.has(p));
  if (links.length === 0 && modules.length === 0) return null;
  const left: string[] = [];
  for (const link of links) {
    const removed = await readWorkspaceGit(['-C', workspace, 'update-index', '--force-remove', '--', link], {
      timeoutMs: GIT_TIMEOUT_MS,
    });
    if (removed === null) left.push(link);
  }
  for (const module of modules) {
    await fs.rm(path.join(workspace, '.git', 'modules', module), { recursive: true, force: true });
  }
  const taken = [
    ...links.filter((l) => !left.includes(l)).map((l) => `the gitlink ${l} from the index`),
    ...modules.map((m) => `.git/modules/${m}`),
  ];
  const failed = left.length ? ` Could not remove the gitlink ${left.join(', ')}: tell the user.` : '';
  return `refused by the sandbox: a command may not add a repository the user's git would enter (a submodule); removed ${taken.join(', ')}.${failed} Ask the user to add submodules themselves.`;
}
