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
 * but its hooks and config are not, nor those of the submodules' repositories kept in
 * `.git/modules`: the card says so in amber.
 */
import { execFile } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readGitlinks, type GitlinkReader } from './gitlinks.js';
import { isWithin } from './within.js';

/** The app's own folders in a workspace: Stop hooks and skills (SPEC §4). */
export const APP_FOLDERS: readonly string[] = ['.gatehouse', '.claude'];

/**
 * Hook managers whose hook script in `.git/hooks` (or `core.hooksPath`) runs whatever
 * this file says at the person's next commit.
 */
export const HOOK_MANAGER_CONFIGS: readonly string[] = [
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook-local.yml',
  '.overcommit.yml',
  '.simple-git-hooks.json',
  '.simple-git-hooks.js',
];

export interface GitPlaces {
  /**
   * Read-only, each mounted on its own: real paths inside the workspace. One that does not
   * exist yet is made empty for the run by the sandbox (placeholders.ts), so a command
   * cannot be the one to fill it.
   */
  readOnly: string[];
  /** With git: true, the git folders the command may write (outside the workspace for a worktree). */
  gitWritable: string[];
}

/** How `core.hooksPath` is read; a test stands in its own. */
export type HooksPathReader = (workspace: string) => Promise<string | null>;

export async function gitPlaces(
  workspace: string,
  options: { git: boolean; hooksPath?: HooksPathReader; gitlinks?: GitlinkReader },
): Promise<GitPlaces> {
  const places: GitPlaces = { readOnly: [], gitWritable: [] };
  const dotGit = path.join(workspace, '.git');
  const kind = entryKind(dotGit);
  if (kind === 'folder') {
    addGitFolder(places, dotGit, options.git);
    addSubmodules(places, workspace, await (options.gitlinks ?? readGitlinks)(workspace));
  }
  if (kind === 'file') addGitFile(places, workspace, dotGit, options.git);
  // Not a repository: an empty read-only .git stands in its place (placeholders.ts), so no
  // command can make one for the person's git to find, with git: true or without.
  if (kind === 'absent') places.readOnly.push(dotGit);
  const hooksPath = await (options.hooksPath ?? readHooksPath)(workspace);
  if (hooksPath) {
    const folder = path.resolve(workspace, hooksPath);
    if (isWithin(folder, workspace) && folder !== workspace) addFolder(places, folder);
  }
  for (const name of APP_FOLDERS) addFolder(places, path.join(workspace, name));
  for (const name of HOOK_MANAGER_CONFIGS) {
    const file = path.join(workspace, name);
    if (entryKind(file) === 'file') places.readOnly.push(file);
  }
  return places;
}

function addGitFolder(places: GitPlaces, dotGit: string, git: boolean): void {
  if (!git) {
    places.readOnly.push(dotGit);
    return;
  }
  places.gitWritable.push(dotGit);
  for (const gitDir of [dotGit, ...moduleGitDirs(path.join(dotGit, 'modules'), MODULE_DEPTH)]) {
    addFolder(places, path.join(gitDir, 'hooks'));
    if (entryKind(path.join(gitDir, 'config')) === 'file') places.readOnly.push(path.join(gitDir, 'config'));
  }
}

/** How deep submodules of submodules are followed in `.git/modules`. */
const MODULE_DEPTH = 4;

/** The submodules' repositories that `.git/modules` keeps (a folder with a HEAD), their own nested ones too. */
function moduleGitDirs(folder: string, depth: number): string[] {
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
 * workspace it is read-only anyway, unless `git: true` makes it writable for the run.
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
      addFolder(places, path.join(folder, 'hooks'));
      if (entryKind(path.join(folder, 'config')) === 'file') places.readOnly.push(path.join(folder, 'config'));
    } else if (isWithin(folder, workspace)) {
      places.readOnly.push(folder);
    }
  }
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

/** A folder inside the workspace, read-only; the sandbox makes it empty for the run when it does not exist. */
function addFolder(places: GitPlaces, folder: string): void {
  const kind = entryKind(folder);
  if (kind === 'folder' || kind === 'file' || kind === 'absent') places.readOnly.push(folder);
  // A link is left alone: it lands somewhere else, which is read-only unless it is in the workspace,
  // and then that place is what a command could change; see the note in the closing issue.
}

/**
 * `core.hooksPath` as the person's git reads it (system, global, local and worktree
 * config, includes followed): `git config` only reads files, it never runs a hook or
 * an fsmonitor. Null when unset, when git is missing or refuses the folder.
 *
 * Asked again only when one of the config files changed (by size, time or identity):
 * spawning git for every command doubled a confined `true`'s cost.
 */
export const readHooksPath: HooksPathReader = async (workspace) => {
  const key = configStamp(workspace);
  const cached = hooksPathCache.get(workspace);
  if (cached && cached.key === key) return cached.value;
  const value = await askGit(workspace);
  hooksPathCache.set(workspace, { key, value });
  return value;
};

const hooksPathCache = new Map<string, { key: string; value: string | null }>();

function askGit(workspace: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', workspace, 'config', '--get', 'core.hooksPath'],
      { timeout: 5000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_TERMINAL_PROMPT: '0' } },
      (err, stdout) => resolve(err ? null : String(stdout).trim() || null),
    );
  });
}

/** Where git reads config for this workspace, stamped; a change to any means asking again. */
function configStamp(workspace: string): string {
  const home = process.env.HOME ?? '';
  const xdg = process.env.XDG_CONFIG_HOME ?? path.join(home, '.config');
  const files = [
    path.join(workspace, '.git'),
    path.join(workspace, '.git', 'config'),
    path.join(workspace, '.git', 'config.worktree'),
    path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    '/etc/gitconfig',
  ];
  return files
    .map((f) => {
      try {
        const st = statSync(f);
        return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
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
