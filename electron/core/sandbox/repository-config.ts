/**
 * What a repository's config names that runs code at the person's next commit or status:
 * `core.hooksPath`, and the files its config includes (`include.path`, `includeIf.*.path`)
 * that lie in the workspace, where a confined command could write a `core.fsmonitor` the
 * person's own git then runs. Both read as the person's git reads them, asked through the app's one git door
 * (git/workspace-git.ts), never with the workspace's or the person's setup able to
 * run anything: `git config` only reads files.
 *
 * Asked with git rather than parsed, because the value may come through `include.path`
 * and `includeIf` (conditions on the git folder, the branch), which only git evaluates as
 * the person's git will. The door keeps out the system and global config, and sets
 * `core.hooksPath=/dev/null` on its own command line, so the repository's own value is the
 * last one that did not come from the command line; the person's global and system files
 * are then read one by one with `--file` (a global `core.hooksPath = .githooks` is
 * relative, so it names a folder in every workspace). A `~/` include names nothing
 * (the door has no HOME), so such a file's value is missed.
 *
 * Asked again only when one of the config files changed (by size, time or identity):
 * spawning git for every command doubled a confined `true`'s cost.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { readWorkspaceGit } from '../git/workspace-git.js';

/** How `core.hooksPath` is read; a test stands in its own. Null when unset or unreadable. */
export type HooksPathReader = (workspace: string) => Promise<string | null>;

export interface RepositoryConfig {
  hooksPath: string | null;
  /** The config files included from the repository's config, absolute (some may not exist). */
  includes: string[];
}

const TIMEOUT_MS = 5000;

const cache = new Map<string, { key: string; value: RepositoryConfig }>();

export const readHooksPath: HooksPathReader = async (workspace) => (await readRepositoryConfig(workspace)).hooksPath;

export async function readRepositoryConfig(workspace: string): Promise<RepositoryConfig> {
  const cached = cache.get(workspace);
  if (cached && cached.key === configStamp(workspace, cached.value.includes)) return cached.value;
  const repository = await repositoryValues(workspace);
  const value = {
    hooksPath: repository.hooksPath ?? (await personalValue()),
    includes: repository.includes,
  };
  cache.set(workspace, { key: configStamp(workspace, value.includes), value });
  return value;
}

/**
 * The repository's values (local, worktree, their includes): the hooks path is the last one
 * not from the command line; an include's path is relative to the file that names it.
 */
async function repositoryValues(workspace: string): Promise<RepositoryConfig> {
  const out = await readWorkspaceGit(
    [
      '-C',
      workspace,
      'config',
      '-z',
      '--show-origin',
      '--includes',
      '--get-regexp',
      '^(core\\.hookspath|include\\.path|includeif\\..*\\.path)$',
    ],
    { timeoutMs: TIMEOUT_MS },
  );
  const found: RepositoryConfig = { hooksPath: null, includes: [] };
  if (out === null) return found;
  const fields = out.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i] as string;
    if (!origin.startsWith('file:')) continue; // the door's own -c settings
    const entry = fields[i + 1] as string;
    const cut = entry.indexOf('\n');
    const [key, value] = [entry.slice(0, cut), entry.slice(cut + 1).trim()];
    if (key === 'core.hookspath') found.hooksPath = value || null;
    else if (value && !value.startsWith('~')) {
      found.includes.push(path.resolve(workspace, path.dirname(origin.slice('file:'.length)), value));
    }
  }
  return found;
}

/** The person's global then system value, highest first, each file read on its own. */
async function personalValue(): Promise<string | null> {
  for (const file of personalConfigFiles()) {
    if (!exists(file)) continue;
    const out = await readWorkspaceGit(['config', '--file', file, '--includes', '--get', 'core.hooksPath'], {
      timeoutMs: TIMEOUT_MS,
    });
    if (out?.trim()) return out.trim();
  }
  return null;
}

function personalConfigFiles(): string[] {
  const home = process.env.HOME ?? '';
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [...(home ? [path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config')] : []), '/etc/gitconfig'];
}

/** Where git reads config for this workspace, stamped; a change to any means asking again. */
function configStamp(workspace: string, includes: readonly string[]): string {
  const files = [
    path.join(workspace, '.git'),
    path.join(workspace, '.git', 'config'),
    path.join(workspace, '.git', 'config.worktree'),
    ...includes,
    ...personalConfigFiles(),
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

function exists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
