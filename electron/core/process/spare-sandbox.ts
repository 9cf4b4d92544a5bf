/**
 * A sandbox started ahead of the program it will run: one process group of this room's
 * (process-group.ts), held to a view's profile by the same `Sandbox.confine` as every
 * command, whose process is a POSIX shell waiting for one line on its standard input,
 * then replaced by the program that line names (`exec`). Starting bubblewrap (its
 * namespaces, its mounts) cost a stopped grep about 8 ms, a third of the grep; started
 * while the grep before it ran, the next grep only hands over its argv.
 *
 * What the program runs in is exactly a fresh start's: the same view, its own namespaces
 * and private /tmp, the environment the sandbox gives a command (the shell passes it on
 * untouched); its standard input is empty, as a fresh start's 'ignore'. Killed, and once
 * it ended, it is the group as before: bubblewrap reports the program's exit as its own.
 *
 * The shell is the only program a spare needs that every Linux has where bubblewrap runs.
 */
import type { Confine } from '../sandbox/sandbox.js';
import { ProcessGroup } from './process-group.js';

export interface SpareStart {
  /** The view the program will run in. */
  confine: Confine;
  /** Its working folder. */
  cwd: string;
  /** The environment a command would be given (the sandbox keeps its allow-listed part). */
  env: NodeJS.ProcessEnv;
}

/**
 * Reads one line and runs it: `exec` and the program's argv, each argument single-quoted
 * (quoteArgv). `nl` stands for a newline inside an argument, so the line stays one line.
 * No line (the app stopped the spare, or died): it ends.
 */
const WAIT_THEN_EXEC = 'nl=\'\n\'; IFS= read -r line || exit 125; eval "$line"';

export class SpareSandbox {
  private taken = false;

  private constructor(private readonly group: ProcessGroup) {
    // A spare stopped or dead before it was used: nothing to write to, and nothing to say.
    group.stdin?.on('error', () => {});
  }

  /** Starts the sandbox, waiting for its program. Throws as ProcessGroup.start does. */
  static async start(spec: SpareStart): Promise<SpareSandbox> {
    const group = await ProcessGroup.start({
      argv: ['/bin/sh', '-c', WAIT_THEN_EXEC],
      cwd: spec.cwd,
      env: spec.env,
      stdin: 'pipe',
      confine: spec.confine,
    });
    return new SpareSandbox(group);
  }

  /** Not yet used, and still running. */
  get usable(): boolean {
    return !this.taken && this.group.exit === null;
  }

  /** The wrapper's pid (the group's id). */
  get pid(): number {
    return this.group.pid;
  }

  /** Runs `argv` in it, with standard input empty; the group is the caller's from here on. Once. */
  become(argv: readonly string[]): ProcessGroup {
    if (!this.usable) throw new Error('this spare sandbox was used or has ended');
    this.taken = true;
    this.group.stdin?.end(`exec ${quoteArgv(argv)} </dev/null\n`);
    return this.group;
  }

  /** Stops it, unused, and removes what the sandbox set up for it. */
  async stop(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    await this.group.stop();
    await this.group.release();
  }
}

/**
 * The argv as one line of POSIX shell: each argument in single quotes, in which nothing is
 * special but the quote itself (closed, escaped, reopened) and a newline, which would end
 * the line (closed, `"$nl"`, reopened).
 */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map((arg) => `'${arg.replace(/'/g, "'\\''").replace(/\n/g, `'"$nl"'`)}'`).join(' ');
}
