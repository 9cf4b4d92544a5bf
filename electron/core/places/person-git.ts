/**
 * git on the person's repository, for making, committing into and removing a place: every
 * command through the app's git door (git/workspace-git.ts: hooks off, fsmonitor off, no
 * lazy fetch, an environment from scratch), and on top of the door's rule the settings that
 * stop a checkout or a commit from running what the repository's config names:
 *
 * - each filter driver the config defines (`filter.<name>.clean/smudge/process`) blanked, so
 *   a checkout writes the blob as it is (an LFS file arrives as its pointer) and nothing runs;
 * - no commit signing (commit-tree would run `gpg.program`), no submodule walk, no auto gc.
 *
 * The drivers are found with `git config --get-regexp`, which only reads the config.
 */
import { GitError, runGit, type GitResult } from '../checkpoints/git-run.js';
import { PlaceError } from './place-error.js';
import { workspaceGitArgs } from '../git/workspace-git.js';

const TIMEOUT_MS = 10 * 60_000;

/** Settings that hold for every command here, whatever the repository's config says. */
const QUIET_SETTINGS: readonly string[] = [
  'commit.gpgSign=false',
  'gpg.program=/bin/false',
  'submodule.recurse=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'core.sparseCheckout=false',
  'advice.detachedHead=false',
];

export interface PersonGitCall {
  what: string;
  args: readonly string[];
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  okCodes?: readonly number[];
}

export class PersonGit {
  private blanks: Promise<string[]> | null = null;

  constructor(
    readonly git: string,
    /** The person's work tree root (commands run there). */
    readonly origin: string,
  ) {}

  async run(call: PersonGitCall): Promise<GitResult> {
    const settings = [...QUIET_SETTINGS, ...(await this.filterBlanks())];
    return runGit({
      what: call.what,
      git: this.git,
      args: [...settings.flatMap((s) => ['-c', s]), ...call.args],
      env: call.env ?? {},
      cwd: this.origin,
      timeoutMs: TIMEOUT_MS,
      ...(call.input !== undefined ? { input: call.input } : {}),
      ...(call.okCodes ? { okCodes: call.okCodes } : {}),
    });
  }

  async text(call: PersonGitCall): Promise<string> {
    return (await this.run(call)).stdout.toString('utf8').replace(/\n$/, '');
  }

  /**
   * The exact argv a command runs with (for the Apply-as-commit card): the door's settings,
   * then these, as the door starts it; the person sees every switch that keeps it quiet.
   */
  async shown(args: readonly string[]): Promise<string[]> {
    const settings = [...QUIET_SETTINGS, ...(await this.filterBlanks())];
    return ['git', ...workspaceGitArgs([...settings.flatMap((s) => ['-c', s]), ...args])];
  }

  /** `-c` settings that blank every filter driver the repository's config defines. */
  private filterBlanks(): Promise<string[]> {
    this.blanks ??= this.readFilterNames().then((names) =>
      names.flatMap((n) => [
        `filter.${n}.clean=`,
        `filter.${n}.smudge=`,
        `filter.${n}.process=`,
        `filter.${n}.required=false`,
      ]),
    );
    return this.blanks;
  }

  private async readFilterNames(): Promise<string[]> {
    const { code, stdout } = await runGit({
      what: "list the repository's filter drivers",
      git: this.git,
      args: ['config', '-z', '--get-regexp', '^filter\\.'],
      env: {},
      cwd: this.origin,
      timeoutMs: TIMEOUT_MS,
      okCodes: [1],
    });
    if (code === 1) return [];
    const names = new Set<string>();
    // -z: "<key>\n<value>\0" per entry; the key is filter.<name>.<what>, and a name may hold dots.
    for (const entry of stdout.toString('utf8').split('\0')) {
      const key = entry.split('\n')[0] ?? '';
      const m = /^filter\.(.+)\.[^.]+$/s.exec(key);
      if (!m?.[1]) continue;
      // `-c` splits at the first "=": such a name could not be blanked, so nothing runs at all.
      if (/[=\n\0]/.test(m[1]))
        throw new PlaceError(
          `the repository's config names a filter driver that cannot be turned off (${JSON.stringify(m[1])}), so no worktree is made from it`,
        );
      names.add(m[1]);
    }
    return [...names];
  }
}

export { GitError };
