/**
 * The git commands of one store, against its shadow repository: the common dir for objects
 * and refs, a session's worktree dir for its index and HEAD, or a temporary index for a
 * restore. Every command gets the isolated environment and settings (shadow-git-env.ts).
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { runGit, type GitResult } from './git-run.js';
import { shadowConfigArgs, shadowEnv } from './shadow-git-env.js';
import type { StoreLayout } from './store-layout.js';

/** Commands that only read or write a few objects. */
export const QUICK_TIMEOUT_MS = 60_000;
/** Commands that walk or hash the whole workspace, or repack the store. */
export const LONG_TIMEOUT_MS = 15 * 60_000;

export interface ShadowCall {
  what: string;
  args: readonly string[];
  /** A session's worktree dir (its index and HEAD); the common dir when absent. */
  gitDir?: string;
  /** Whether the command reads or writes the workspace's files. */
  workTree?: boolean;
  indexFile?: string;
  input?: string | Buffer;
  timeoutMs?: number;
  okCodes?: readonly number[];
  locks?: readonly string[];
}

export class ShadowGit {
  constructor(
    readonly git: string,
    readonly layout: StoreLayout,
    readonly workspaceRoot: string,
  ) {}

  run(call: ShadowCall): Promise<GitResult> {
    const excludesFile = call.workTree ? this.personsExcludes() : undefined;
    return runGit({
      what: call.what,
      git: this.git,
      args: [...shadowConfigArgs({ excludesFile }), ...call.args],
      env: shadowEnv({
        gitDir: call.gitDir ?? this.layout.repo,
        home: this.layout.storeDir,
        ...(call.workTree ? { workTree: this.workspaceRoot } : {}),
        ...(call.indexFile ? { indexFile: call.indexFile } : {}),
      }),
      cwd: call.workTree ? this.workspaceRoot : this.layout.storeDir,
      timeoutMs: call.timeoutMs ?? QUICK_TIMEOUT_MS,
      ...(call.input !== undefined ? { input: call.input } : {}),
      ...(call.okCodes ? { okCodes: call.okCodes } : {}),
      ...(call.locks ? { locks: call.locks } : {}),
    });
  }

  /** Runs and returns stdout as text, without its last newline. */
  async text(call: ShadowCall): Promise<string> {
    return (await this.run(call)).stdout.toString('utf8').replace(/\n$/, '');
  }

  /**
   * The person's `<workspace>/.git/info/exclude`, read by git through core.excludesFile
   * (read only, and always current: nothing to copy or keep in step). Only a plain file
   * in a `.git` folder counts; a link or a pipe there is not followed.
   */
  private personsExcludes(): string | undefined {
    const file = path.join(this.workspaceRoot, '.git', 'info', 'exclude');
    try {
      if (!lstatSync(path.join(this.workspaceRoot, '.git')).isDirectory()) return undefined;
      if (!lstatSync(path.join(this.workspaceRoot, '.git', 'info')).isDirectory()) return undefined;
      return lstatSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  }
}
