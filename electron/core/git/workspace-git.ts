/**
 * The one door through which the app runs git on a workspace (SPEC §9: the app never acts
 * on the workspace with more reach than a confined command). A workspace's `.git` may
 * have arrived with the folder (an archive, a template), or its config may include a
 * tracked file a confined command can write; git reads that config and, unless told
 * otherwise, runs what it names (`core.fsmonitor` on any command that reads the index,
 * hooks, external diffs, a lazy fetch's transport) as the person, before any card is
 * answered. So every git the app starts here gets the same rule:
 *
 * - `-c` settings ahead of its own that turn off each way a read can run a program;
 * - an environment built from scratch: no system or global config, no `GIT_*` variable and
 *   no HOME of the app's (a `~/` include then names nothing), `LANG=C` so its words parse.
 *
 * A caller adds its own environment on top (the checkpoint store's shadow repository sets
 * GIT_DIR, its own HOME and stricter settings of its own); the rule's variables are set
 * last, so no caller can turn them back on. No other file of electron/core spawns git
 * (a test holds that). It is a room of its own, below the sandbox and the checkpoints that
 * read git through it: the sandbox plans and never imports the process room.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';

/**
 * Settings that stop a git command from running a program. Later `-c` wins, so a caller's
 * own settings come after these and may only be stricter.
 */
export const WORKSPACE_GIT_CONFIG: readonly string[] = [
  // Runs its hook on every command that reads the index (status, ls-files, diff).
  'core.fsmonitor=false',
  // No hook runs from the app's git (commit-tree, checkout-index never run one; this is for certain).
  'core.hooksPath=/dev/null',
  // Writes the person's index to keep its cache; the app's reads change nothing there.
  'core.untrackedCache=false',
  'core.pager=cat',
  // A partial clone fetches a missing object on read, through whatever transport the config
  // names (core.sshCommand, an ext:: remote): no transport at all.
  'protocol.allow=never',
  // Not here: diff.external (an empty value makes git run "" and fail). The app's diffs are of
  // its shadow repository (GIT_DIR set, the workspace's config never read) and pass --no-ext-diff.
];

/** Where a config `~/` would land: a path that does not exist, so no person's file is read. */
const NO_HOME = '/nonexistent';

/** The door's environment: from scratch, never the app's, with `extra` under the rule's own variables. */
export function workspaceGitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(process.env.SYSTEMROOT ? { SYSTEMROOT: process.env.SYSTEMROOT } : {}), // Windows needs it to start anything
    HOME: NO_HOME,
    ...extra,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    // Git 2.45 and later: a missing object is never fetched (older gits ignore it; protocol.allow covers them).
    GIT_NO_LAZY_FETCH: '1',
  };
}

/** The rule's `-c` settings, then the caller's arguments. */
export function workspaceGitArgs(args: readonly string[]): string[] {
  return [...WORKSPACE_GIT_CONFIG.flatMap((s) => ['-c', s]), ...args];
}

export interface WorkspaceGitSpawn {
  /** The git program: an absolute path found once (find-git.ts), or `git` on the app's PATH. */
  git?: string;
  args: readonly string[];
  cwd?: string;
  /** Set on top of the rule's environment (never over the rule's own variables). */
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
  /** A group of its own, so a timeout also stops what git started. */
  detached?: boolean;
}

/** Starts git through the door, its three streams piped (the checkpoint store feeds and reads them all). */
export function spawnPipedWorkspaceGit(spec: Omit<WorkspaceGitSpawn, 'stdio'>): ChildProcessWithoutNullStreams {
  return spawnWorkspaceGit({ ...spec, stdio: 'pipe' }) as ChildProcessWithoutNullStreams;
}

/** Starts git through the door. */
export function spawnWorkspaceGit(spec: WorkspaceGitSpawn): ChildProcess {
  return spawn(spec.git ?? 'git', workspaceGitArgs(spec.args), {
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
    env: workspaceGitEnv(spec.env),
    stdio: spec.stdio ?? ['ignore', 'pipe', 'pipe'],
    detached: spec.detached ?? false,
    windowsHide: true,
  });
}

/** A short git through the door, to its end: its stdout, or null when it failed or passed `timeoutMs`. */
export function readWorkspaceGit(
  args: readonly string[],
  options: { git?: string; cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<string | null> {
  return new Promise((resolve) => {
    const { timeoutMs, ...where } = options;
    const child = spawnWorkspaceGit({
      args,
      ...where,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? Buffer.concat(chunks).toString('utf8') : null);
    });
  });
}
