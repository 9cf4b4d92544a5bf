/**
 * Whether checkpoints can run here (SPEC §12): they drive the system git, found on PATH
 * and asked its version. Without it undo is off, and every place that would offer it says
 * why in `reason` and what to do in `fix`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { readWorkspaceGit } from '../git/workspace-git.js';
import type { GitAvailability } from './checkpoint-store.js';

/** Older gits lack what the store uses (porcelain v2 status with --ignored=matching, update-ref --stdin options). */
export const GIT_MIN_VERSION: readonly [number, number] = [2, 20];

const VERSION_TIMEOUT_MS = 10_000;
const NOT_INSTALLED = {
  ok: false as const,
  reason: 'git is not installed',
  fix: 'install git (e.g. apt install git, or Xcode command line tools on macOS) and restart Gatehouse',
};

/** One answer per PATH for the life of its owner (a WorkspaceStores): git does not come and go while the app runs. */
export class GitFinder {
  private readonly answers = new Map<string, Promise<GitAvailability>>();

  find(env: NodeJS.ProcessEnv = process.env): Promise<GitAvailability> {
    const key = `${env.PATH ?? ''}\0${env.PATHEXT ?? ''}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = findGit(env);
      this.answers.set(key, answer);
    }
    return answer;
  }
}

/** Looks for git afresh (a GitFinder remembers the answer). */
export async function findGit(env: NodeJS.ProcessEnv = process.env): Promise<GitAvailability> {
  const git = onPath('git', env);
  if (!git) return NOT_INSTALLED;
  const out = await versionOf(git, env);
  if (out === null) return { ...NOT_INSTALLED, reason: `git at ${git} does not run` };
  const version = /git version (\d+)\.(\d+)(\.\S+)?/.exec(out);
  if (!version) return { ...NOT_INSTALLED, reason: `git at ${git} did not say its version` };
  const [major, minor] = [Number(version[1]), Number(version[2])];
  if (major < GIT_MIN_VERSION[0] || (major === GIT_MIN_VERSION[0] && minor < GIT_MIN_VERSION[1])) {
    return {
      ok: false,
      reason: `git ${major}.${minor} is older than ${GIT_MIN_VERSION.join('.')}`,
      fix: 'update git and restart Gatehouse',
    };
  }
  return { ok: true, git, version: version[0].slice('git version '.length) };
}

/** The first executable `name` in PATH, as an absolute path; null when none. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue; // a relative PATH entry would find a git planted in the cwd
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext.toLowerCase());
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Through the app's one git door, like every git the app runs. */
async function versionOf(git: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const out = await readWorkspaceGit(['--version'], {
    git,
    env: { PATH: env.PATH ?? '' },
    timeoutMs: VERSION_TIMEOUT_MS,
  });
  return out === null ? null : out.trim();
}
