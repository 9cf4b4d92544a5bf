/**
 * The submodules of a workspace, as the person's git sees them: the gitlinks (mode 160000)
 * in its index. `git status` goes into each populated one and reads *its* config, so a
 * command that replaced `sub/.git` (a file naming `.git/modules/sub`) with a folder of its
 * own making, with a `core.fsmonitor` in its config, had the person's next `git status`
 * in the workspace run it. The index, not `.gitmodules`, is what git follows, and a
 * confined command cannot change the index (`.git` is read-only) while `.gitmodules` is
 * an ordinary file of the workspace.
 *
 * Read from the index file itself (index-file.ts), never by running git: this runs while
 * every command card is planned, before any answer, and a git there read the workspace's
 * config (a `core.fsmonitor` that arrived with the folder ran even when the card was then
 * denied). Read again only when the index changed (by identity, size or time): most
 * commands find it as the last one left it.
 */
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { gitlinksOfIndex } from './index-file.js';

/** Reads the gitlinks of a workspace, relative paths; a test stands in its own. */
export type GitlinkReader = (workspace: string) => Promise<string[]>;

/** Past this an index is not read (a real one of a million files is about 100 MiB); .gitmodules stands in. */
export const INDEX_MAX_BYTES = 256 * 1024 * 1024;

const cache = new Map<string, { stamp: string; paths: string[] }>();

export const readGitlinks: GitlinkReader = async (workspace) => {
  const index = path.join(workspace, '.git', 'index');
  const stamp = await indexStamp(index);
  if (stamp === null) return [];
  const cached = cache.get(workspace);
  if (cached?.stamp === stamp) return cached.paths;
  const paths = await gitlinksOf(workspace, index);
  // An index too large or not understood: the paths .gitmodules names are the best guess left,
  // and the index is read again next time.
  if (paths === null) return gitmodulesPaths(workspace);
  cache.set(workspace, { stamp, paths });
  return paths;
};

async function indexStamp(index: string): Promise<string | null> {
  try {
    const st = await fs.stat(index);
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null; // no index (not a repository, a worktree, a fresh `git init`): no gitlink either
  }
}

async function gitlinksOf(workspace: string, index: string, shared = false): Promise<string[] | null> {
  let bytes: Buffer;
  try {
    const handle = await fs.open(index, 'r');
    try {
      if ((await handle.stat()).size > INDEX_MAX_BYTES) return null;
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
  const links = gitlinksOfIndex(bytes, hashSizeOf(workspace));
  if (links === null) return null;
  // A split index keeps most entries in a shared file beside it; reading both may list an entry
  // the main index removed, which only makes one more place read-only.
  if (links.sharedIndex === null) return links.paths;
  if (shared) return null; // a shared index is never split again
  const rest = await gitlinksOf(workspace, path.join(workspace, '.git', `sharedindex.${links.sharedIndex}`), true);
  return rest === null ? null : [...new Set([...links.paths, ...rest])];
}

/** 32 bytes per object name in a SHA-256 repository, 20 otherwise. */
function hashSizeOf(workspace: string): 20 | 32 {
  try {
    const config = readFileSync(path.join(workspace, '.git', 'config'), 'utf8').slice(0, 1024 * 1024);
    return /^\s*objectformat\s*=\s*"?sha256"?\s*$/im.test(config) ? 32 : 20;
  } catch {
    return 20;
  }
}

/** The `path = …` lines of `.gitmodules`. */
function gitmodulesPaths(workspace: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(workspace, '.gitmodules'), 'utf8').slice(0, 1024 * 1024);
  } catch {
    return [];
  }
  return [...text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((m) => m[1] as string);
}
