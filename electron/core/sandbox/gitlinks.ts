/**
 * The submodules of a workspace, as the person's git sees them: the gitlinks (mode 160000)
 * in its index. `git status` goes into each populated one and reads *its* config, so a
 * command that replaced `sub/.git` (a file naming `.git/modules/sub`) with a folder of its
 * own making, with a `core.fsmonitor` in its config, had the person's next `git status`
 * in the workspace run it. The index, not `.gitmodules`, is what git follows, and a
 * confined command cannot change the index (`.git` is read-only) while `.gitmodules` is
 * an ordinary file of the workspace.
 *
 * Read by `git ls-files --stage`, which reads the index and runs nothing, streamed so a
 * huge index never sits whole in memory, and asked again only when the index changed (by
 * identity, size or time): most commands find it as the last one left it.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Reads the gitlinks of a workspace, relative paths; a test stands in its own. */
export type GitlinkReader = (workspace: string) => Promise<string[]>;

const GITLINK_MODE = '160000 ';
/** Long enough for git to read any index on a busy machine; past it, no gitlink is known (see below). */
const LIST_TIMEOUT_MS = 30_000;

const cache = new Map<string, { stamp: string; paths: string[] }>();

export const readGitlinks: GitlinkReader = async (workspace) => {
  const stamp = indexStamp(workspace);
  if (stamp === null) return [];
  const cached = cache.get(workspace);
  if (cached?.stamp === stamp) return cached.paths;
  const paths = await listGitlinks(workspace);
  // A git that is missing or failed: the paths .gitmodules names are the best guess left,
  // and the index is asked again next time.
  if (paths === null) return gitmodulesPaths(workspace);
  cache.set(workspace, { stamp, paths });
  return paths;
};

function indexStamp(workspace: string): string | null {
  try {
    const st = statSync(path.join(workspace, '.git', 'index'));
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null; // no index (not a repository, a worktree, a fresh `git init`): no gitlink either
  }
}

/** `git ls-files --stage -z`: `<mode> <object> <stage>\t<path>\0` per entry; null when git failed. */
function listGitlinks(workspace: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    const found: string[] = [];
    let rest = '';
    const child = spawn('git', ['-C', workspace, 'ls-files', '--stage', '-z'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: LIST_TIMEOUT_MS,
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const entries = (rest + chunk).split('\0');
      rest = entries.pop() ?? '';
      for (const entry of entries) if (entry.startsWith(GITLINK_MODE)) found.push(entry.slice(entry.indexOf('\t') + 1));
    });
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code === 0 ? [...new Set(found)] : null));
  });
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
