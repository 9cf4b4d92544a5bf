/**
 * The places in a workspace that something outside the sandbox runs code from later
 * (SPEC §9): git, when the person runs `git status` or `git commit` unconfined, and the
 * app itself (Stop hooks and skills in `.gatehouse/`, skills in `.claude/`). A confined
 * command must not change them, or one allowed command becomes code run as the person.
 *
 * Each is read-only as a whole and mounted on its own, so it is a mount point: a mount
 * cannot be renamed away (EBUSY), which is how `mv .git .git-old` then a new `.git`
 * planted a `core.fsmonitor` before. A read-only `.git` also closes `.git/commondir`,
 * `.git/config`, the hooks and the index (through which a nested repository was added
 * as a gitlink). A worktree's `.git` *file* is mounted too, and the folder it names when
 * that folder is inside the workspace; so is the folder `core.hooksPath` names (husky's
 * `.husky/`), and the configuration of the hook managers that a hook in `.git/hooks`
 * hands the commit to. Each submodule's `.git` is read-only too (gitlinks.ts), or, for one
 * not checked out, its folder, so that nothing can become a repository there.
 *
 * With `git: true` (a command that must commit, check out or fetch), `.git` is writable
 * but what makes git run code is not (hooks, config, commondir, config.worktree, the same
 * of linked worktrees and of the submodules' repositories kept in `.git/modules`): the
 * card says so in amber. What it could still add, a gitlink in the index or a repository
 * in `.git/modules`, is compared after the run and taken back (git-growth.ts).
 *
 * A config file the repository's config includes is read-only when a command could write
 * it, and the hook managers' files and folders are, since their hooks run them.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { readGitlinks, type GitlinkReader } from './gitlinks.js';
import { readRepositoryConfig, type HooksPathReader } from './repository-config.js';
import { isWithin } from './within.js';

/** The app's own folders in a workspace: Stop hooks and skills (SPEC §4). */
export const APP_FOLDERS: readonly string[] = ['.gatehouse', '.claude'];

/**
 * Hook managers whose hook script in `.git/hooks` (or `core.hooksPath`) runs whatever
 * this file says at the person's next commit.
 */
export const HOOK_MANAGER_CONFIGS: readonly string[] = [
  // pre-commit
  '.pre-commit-config.yaml',
  // lefthook (the local file is merged into the main one)
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  '.lefthook-local.yml',
  'lefthook-local.yaml',
  // overcommit
  '.overcommit.yml',
  // simple-git-hooks
  '.simple-git-hooks.json',
  '.simple-git-hooks.js',
  '.simple-git-hooks.cjs',
  '.simple-git-hooks.mjs',
  'simple-git-hooks.json',
  'simple-git-hooks.js',
  'simple-git-hooks.cjs',
  'simple-git-hooks.mjs',
  // husky before v5
  '.huskyrc',
  '.huskyrc.json',
  '.huskyrc.js',
  'husky.config.js',
];

/**
 * Hook managers' folders of scripts that their hook runs: husky's `.husky` (v9 runs
 * `.husky/<hook>` from `core.hooksPath=.husky/_`, v5 to v8 from `.husky` itself) and
 * lefthook's `.lefthook` (scripts per hook), overcommit's `.git-hooks`.
 */
export const HOOK_MANAGER_FOLDERS: readonly string[] = ['.husky', '.lefthook', '.git-hooks'];

export interface GitPlaces {
  /**
   * Read-only, each mounted on its own: real paths inside the workspace. One that does not
   * exist yet is made empty for the run by the sandbox (placeholders.ts), so a command
   * cannot be the one to fill it.
   */
  readOnly: string[];
  /** With git: true, the git folders the command may write (outside the workspace for a worktree). */
  gitWritable: string[];
  /** The repository runs hooks at the person's next commit (a hook in its hooks folder, or `core.hooksPath`): the card says so. */
  hooks: boolean;
  /**
   * A worktree's git folders outside the workspace, shown read-only so that a confined
   * `git status` or `git log` works: the common folder (`<origin>/.git`: objects, refs,
   * config) and the worktree's own admin folder in it.
   */
  shown: string[];
  /** The working files of the repository those folders belong to: hidden around its `.git`. */
  hidden: string[];
}

export type { HooksPathReader } from './repository-config.js';
export { readHooksPath } from './repository-config.js';

export async function gitPlaces(
  workspace: string,
  options: {
    git: boolean;
    hooksPath?: HooksPathReader;
    gitlinks?: GitlinkReader;
    /**
     * The workspace is a session's place of its own (SPEC §15): the person's `.git` it is a
     * worktree of is never writable, not even with git: true.
     */
    place?: boolean;
  },
): Promise<GitPlaces> {
  const places: GitPlaces = { readOnly: [], gitWritable: [], hooks: false, shown: [], hidden: [] };
  const dotGit = path.join(workspace, '.git');
  const kind = entryKind(dotGit);
  if (kind === 'folder') {
    addGitFolder(places, dotGit, options.git);
    addSubmodules(places, workspace, await (options.gitlinks ?? readGitlinks)(workspace));
  }
  if (kind === 'file') addGitFile(places, workspace, dotGit, options.git && options.place !== true);
  // Not a repository: an empty read-only .git stands in its place (placeholders.ts), so no
  // command can make one for the person's git to find, with git: true or without.
  if (kind === 'absent') places.readOnly.push(dotGit);
  const config = options.hooksPath
    ? { hooksPath: await options.hooksPath(workspace), includes: [] }
    : await readRepositoryConfig(workspace);
  addHooksFolder(places, workspace, config.hooksPath);
  places.hooks = config.hooksPath !== null || hasHooks(commonGitDir(workspace, dotGit, kind));
  addIncludedConfigs(places, workspace, config.includes);
  for (const name of APP_FOLDERS) addFolder(places, path.join(workspace, name));
  for (const name of HOOK_MANAGER_CONFIGS) {
    const file = path.join(workspace, name);
    if (entryKind(file) === 'file') places.readOnly.push(file);
  }
  for (const name of HOOK_MANAGER_FOLDERS) {
    const folder = path.join(workspace, name);
    if (entryKind(folder) === 'folder') places.readOnly.push(folder);
  }
  return places;
}

/**
 * The folder `core.hooksPath` names, inside the workspace. husky v9 sets it to `.husky/_`,
 * whose runner executes `.husky/<hook>` one folder up: a hooks folder named `_` has its
 * parent read-only too.
 */
function addHooksFolder(places: GitPlaces, workspace: string, hooksPath: string | null): void {
  if (!hooksPath) return;
  const folder = path.resolve(workspace, hooksPath);
  if (!isWithin(folder, workspace) || folder === workspace) return;
  const parent = path.dirname(folder);
  if (path.basename(folder) === '_' && isWithin(parent, workspace) && parent !== workspace) addFolder(places, parent);
  addFolder(places, folder);
}

/**
 * A config file the repository's config includes, when a command could write it: in the
 * workspace (a tracked `team.gitconfig`) or in a git folder `git: true` makes writable.
 * One that does not exist is left out: an empty folder standing in would break the
 * person's git reading its config while the command runs.
 */
function addIncludedConfigs(places: GitPlaces, workspace: string, includes: readonly string[]): void {
  for (const file of includes) {
    const writable = [workspace, ...places.gitWritable].some((w) => isWithin(file, w));
    if (writable && entryKind(file) === 'file') places.readOnly.push(file);
  }
}

function addGitFolder(places: GitPlaces, dotGit: string, git: boolean): void {
  if (!git) {
    places.readOnly.push(dotGit);
    return;
  }
  places.gitWritable.push(dotGit);
  for (const gitDir of [dotGit, ...moduleGitDirs(path.join(dotGit, 'modules'), MODULE_DEPTH)]) {
    addCodePlaces(places, gitDir);
  }
}

/**
 * With `git: true`, what in a writable git folder makes git run code, read-only whether it
 * exists or not (one that does not stands in for the run, placeholders.ts): the hooks and
 * the config, and what redirects git to another folder with a config of its own:
 * `commondir` (a copy of `.git` with a `core.fsmonitor`, named there, ran at the person's
 * next `git status`), `config.worktree`, and those of each linked worktree kept in
 * `worktrees/`.
 */
function addCodePlaces(places: GitPlaces, gitDir: string): void {
  addFolder(places, path.join(gitDir, 'hooks'));
  for (const name of GIT_CODE_FILES) addFile(places, path.join(gitDir, name));
  for (const worktree of childFolders(path.join(gitDir, 'worktrees'))) {
    // A worktree's folder without a commondir is not one git uses; only its existing file matters.
    if (entryKind(path.join(worktree, 'commondir')) === 'file') places.readOnly.push(path.join(worktree, 'commondir'));
    addFile(places, path.join(worktree, 'config.worktree'));
  }
}

/** The files of a git folder that make git read another config or folder (placeholders.ts knows what stands in for each). */
export const GIT_CODE_FILES: readonly string[] = ['config', 'config.worktree', 'commondir'];

/** Git's own samples, which never run: `pre-commit.sample`. */
const SAMPLE_HOOK = /\.sample$/;

/** Whether a git folder's `hooks` holds a hook that runs (a file that is not a sample). */
function hasHooks(gitDir: string | null): boolean {
  if (!gitDir) return false;
  try {
    return readdirSync(path.join(gitDir, 'hooks'), { withFileTypes: true }).some(
      (e) => !SAMPLE_HOOK.test(e.name) && (e.isFile() || e.isSymbolicLink()),
    );
  } catch {
    return false;
  }
}

/** The folder git takes hooks from: `.git`, or for a worktree the common folder its `.git` file leads to. */
function commonGitDir(workspace: string, dotGit: string, kind: EntryKind): string | null {
  if (kind === 'folder') return dotGit;
  if (kind !== 'file') return null;
  const gitDir = gitDirOf(dotGit, workspace);
  return gitDir ? (commonDirOf(gitDir) ?? gitDir) : null;
}

/** How deep submodules of submodules are followed in `.git/modules`. */
const MODULE_DEPTH = 4;

/** The submodules' repositories that `.git/modules` keeps (a folder with a HEAD), their own nested ones too. */
export function moduleGitDirs(folder: string, depth: number): string[] {
  if (depth === 0) return [];
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const dir = path.join(folder, name);
    if (entryKind(dir) !== 'folder') return [];
    if (entryKind(path.join(dir, 'HEAD')) !== 'file') return moduleGitDirs(dir, depth - 1); // a name with a slash
    return [dir, ...moduleGitDirs(path.join(dir, 'modules'), depth - 1)];
  });
}

/**
 * Each submodule's `.git` (a file naming its repository in `.git/modules`, or an old-style
 * folder) is read-only, so no command can swap in a repository of its own. One not
 * checked out has no `.git`: its folder is read-only instead (made empty for the run when
 * absent), so none can be made there.
 */
function addSubmodules(places: GitPlaces, workspace: string, gitlinks: readonly string[]): void {
  for (const rel of gitlinks) {
    const folder = path.resolve(workspace, rel);
    if (!isWithin(folder, workspace) || folder === workspace) continue;
    const dotGit = path.join(folder, '.git');
    const kind = entryKind(dotGit);
    if (kind === 'file' || kind === 'folder') places.readOnly.push(dotGit);
    else if (kind === 'absent' && ['folder', 'absent'].includes(entryKind(folder))) places.readOnly.push(folder);
  }
}

/**
 * A worktree's or submodule's `.git` file (`gitdir: <folder>`). The file is read-only
 * always; the folder it names is read-only too when it is inside the workspace (the
 * review rewrote the file to `gitdir: ./.g`, a repository of its own making). Outside the
 * workspace, `git: true` makes it writable for the run; without it, it is shown read-only
 * (git reads its objects, refs and config there, so `git status` and `git log` work) and
 * the working files of the repository it belongs to stay hidden: a session's place sees
 * the person's history, never their folder.
 */
function addGitFile(places: GitPlaces, workspace: string, dotGit: string, git: boolean): void {
  places.readOnly.push(dotGit);
  const gitDir = gitDirOf(dotGit, workspace);
  if (!gitDir) return;
  const common = commonDirOf(gitDir);
  const folders = [...new Set([gitDir, ...(common ? [common] : [])])];
  for (const folder of folders) {
    if (git) {
      places.gitWritable.push(folder);
      addCodePlaces(places, folder);
    } else if (isWithin(folder, workspace)) {
      places.readOnly.push(folder);
    } else if (!folders.some((f) => f !== folder && isWithin(folder, f))) {
      // The admin folder `.git/worktrees/<name>` is shown with the common folder holding it.
      places.shown.push(folder);
    }
  }
  const main = mainWorktreeOf(common ?? gitDir);
  if (!git && main && !isWithin(workspace, main)) places.hidden.push(main);
}

/** The folder a repository's `.git` sits in (its main worktree), or null for a bare one. */
function mainWorktreeOf(commonDir: string): string | null {
  return path.basename(commonDir) === '.git' ? path.dirname(commonDir) : null;
}

function gitDirOf(dotGitFile: string, workspace: string): string | null {
  const line = readSmall(dotGitFile)?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
  if (!line) return null;
  return realOrNull(path.resolve(workspace, line));
}

function commonDirOf(gitDir: string): string | null {
  const line = readSmall(path.join(gitDir, 'commondir'))?.trim();
  return line ? realOrNull(path.resolve(gitDir, line)) : null;
}

/** A file, read-only; the sandbox makes what stands in for it for the run when it does not exist. */
function addFile(places: GitPlaces, file: string): void {
  const kind = entryKind(file);
  if (kind === 'file' || kind === 'absent') places.readOnly.push(file);
}

function childFolders(folder: string): string[] {
  try {
    return readdirSync(folder)
      .map((name) => path.join(folder, name))
      .filter((p) => entryKind(p) === 'folder');
  } catch {
    return [];
  }
}

/** A folder inside the workspace, read-only; the sandbox makes it empty for the run when it does not exist. */
function addFolder(places: GitPlaces, folder: string): void {
  const kind = entryKind(folder);
  if (kind === 'folder' || kind === 'file' || kind === 'absent') places.readOnly.push(folder);
  // A link is left alone: it lands somewhere else, which is read-only unless it is in the workspace,
  // and then that place is what a command could change; see the note in the closing issue.
}

type EntryKind = 'folder' | 'file' | 'link' | 'absent' | 'other';

function entryKind(p: string): EntryKind {
  try {
    const stat = lstatSync(p);
    if (stat.isSymbolicLink()) return 'link';
    if (stat.isDirectory()) return 'folder';
    return stat.isFile() ? 'file' : 'other';
  } catch {
    return 'absent';
  }
}

function readSmall(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').slice(0, 4096);
  } catch {
    return null;
  }
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}
