/**
 * Running the bundled ripgrep binary (from @vscode/ripgrep, so nothing needs installing)
 * and streaming its stdout to a consumer as it arrives: inside the sandbox's read-only
 * view when one is given (sandbox/helper-view.ts), started through the process room.
 */
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Readable } from 'node:stream';
import { rgPath } from '@vscode/ripgrep';
import { ProcessGroup, type Confine } from '../process/process-group.js';
import type { SpareSandboxes } from '../process/spare-sandboxes.js';

/** Only the start of stderr is kept: enough for ripgrep's error message. */
const STDERR_MAX_BYTES = 8 * 1024;

export interface RipgrepExit {
  /** 0 matches found, 1 none, 2 an error (possibly alongside matches); null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Why it was killed before it finished, if it was: out of time, the caller aborted, or the caller had enough. */
  stopped: 'time' | 'abort' | 'enough' | null;
}

/**
 * The binary's path. In a packaged app it sits in app.asar.unpacked: a file inside the
 * asar archive cannot be executed.
 */
export const ripgrepPath = rgPath.replace(/\bapp\.asar\b(?!\.unpacked)/, 'app.asar.unpacked');

export interface RipgrepRun {
  cwd: string;
  /**
   * ripgrep's whole environment: the tool context's commandEnv, never process.env, so no
   * API key reaches it (nor anything it starts, such as a preprocessor).
   */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /**
   * After this long ripgrep is killed and the run ends with what it printed so far. It can
   * block for good on something it opens, such as a FIFO named .gitignore in the tree.
   */
  timeLimitMs?: number;
  /** Aborted once the caller has what it needs (the first matches and that there are more): ripgrep stops there. */
  enough?: AbortSignal;
  /** The sandbox's view to run in; absent where no sandbox can run (ripgrep then runs as the app). */
  view?: Confine;
  /**
   * Sandboxes started ahead, per view: ripgrep takes the one made for its view, and the
   * next starts while it runs. Absent, each grep starts its sandbox when it runs.
   */
  spares?: SpareSandboxes;
}

/** A started ripgrep, confined or not: its streams, how to kill it at once, and its end. */
interface Started {
  stdout: Readable;
  stderr: Readable;
  kill(): void;
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function runRipgrep(
  args: readonly string[],
  run: RipgrepRun,
  onStdout: (chunk: Buffer) => void,
): Promise<RipgrepExit> {
  const child = run.view ? await startConfined(args, run, run.view) : await startPlain(args, run);
  const stderr: Buffer[] = [];
  let stderrBytes = 0;
  const stops = stopWhenAsked(child, run);
  child.stdout.on('data', onStdout);
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderrBytes < STDERR_MAX_BYTES) stderr.push(chunk);
    stderrBytes += chunk.length;
  });
  const { code, signal } = await child.closed.finally(() => stops.release());
  const text = Buffer.concat(stderr).subarray(0, STDERR_MAX_BYTES).toString('utf8');
  return { code, signal, stderr: text, stopped: stops.why() };
}

/** stdin is /dev/null: given no path, ripgrep searches its working folder, not stdin. */
function startPlain(args: readonly string[], run: RipgrepRun): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(ripgrepPath, args, { cwd: run.cwd, env: run.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let started = false;
    // Kept for the child's whole life: an 'error' with no listener would crash the app. Once
    // started, its 'close' still comes and says how it ended.
    child.on('error', (err) => {
      if (!started) reject(err);
    });
    child.once('spawn', () => {
      started = true;
      resolve({
        stdout: child.stdout,
        stderr: child.stderr,
        kill: () => child.kill('SIGKILL'),
        closed: new Promise((done) => child.on('close', (code, signal) => done({ code, signal }))),
      });
    });
  });
}

/**
 * ripgrep in the sandbox's view: in a spare started for it where there is one, else in a
 * sandbox started now; the same either way. Killed, the whole group goes at once (the wrapper and all
 * inside). bwrap reports ripgrep's exit code as its own, 128+n when signal n ended it; a
 * sandbox that could not set up says "bwrap: …" and exits 1, which would read as "no
 * match", so that is an error here (2, with bwrap's words).
 */
async function startConfined(args: readonly string[], run: RipgrepRun, view: Confine): Promise<Started> {
  const argv = [ripgrepPath, ...args];
  const group = run.spares
    ? await run.spares.run({ confine: view, cwd: run.cwd, env: run.env }, argv)
    : await ProcessGroup.start({ argv, cwd: run.cwd, env: run.env, stdin: 'ignore', confine: view });
  const stderrHead: Buffer[] = [];
  group.stderr?.on('data', (chunk: Buffer) => {
    if (stderrHead.length < 4) stderrHead.push(chunk);
  });
  const closed = (async () => {
    const exit = await group.exited;
    await group.closed;
    // Its streams are closed, so ripgrep is gone: the answer need not wait for the sandbox's
    // last process to be reaped, nor its private /tmp to go.
    void group.settle().then(() => group.release());
    const bwrapFailed = exit.code === 1 && /^bwrap: /.test(Buffer.concat(stderrHead).toString('utf8'));
    if (bwrapFailed) return { code: 2, signal: null };
    if (exit.code !== null && exit.code > 128) return { code: null, signal: signalName(exit.code - 128) };
    return exit;
  })();
  return {
    stdout: group.stdout as Readable,
    stderr: group.stderr as Readable,
    // The group's id is the wrapper's pid; once it has exited the id may be reused, so no signal then.
    kill: () => {
      if (group.exit !== null) return;
      try {
        process.kill(-group.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    },
    closed,
  };
}

function signalName(n: number): NodeJS.Signals | null {
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === n);
  return entry ? (entry[0] as NodeJS.Signals) : 'SIGKILL';
}

/**
 * Kills ripgrep at the time limit, on abort, or once the caller has enough, and says
 * which came first. SIGKILL: ripgrep has nothing to clean up, and starts no children of
 * its own here (no --pre, no decompression), so killing it ends the whole search.
 */
function stopWhenAsked(child: Started, { signal, timeLimitMs, enough }: RipgrepRun) {
  let stopped: RipgrepExit['stopped'] = null;
  const stop = (why: 'time' | 'abort' | 'enough') => {
    stopped ??= why;
    child.kill();
  };
  const timer = timeLimitMs === undefined ? undefined : setTimeout(() => stop('time'), timeLimitMs);
  const onAbort = () => stop('abort');
  const onEnough = () => stop('enough');
  signal?.addEventListener('abort', onAbort, { once: true });
  enough?.addEventListener('abort', onEnough, { once: true });
  if (signal?.aborted) stop('abort');
  return {
    why: () => stopped,
    release: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      enough?.removeEventListener('abort', onEnough);
    },
  };
}
