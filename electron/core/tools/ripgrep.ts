/**
 * Running the bundled ripgrep binary (from @vscode/ripgrep, so nothing needs installing)
 * and streaming its stdout to a consumer as it arrives.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rgPath } from '@vscode/ripgrep';

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
}

export function runRipgrep(
  args: readonly string[],
  run: RipgrepRun,
  onStdout: (chunk: Buffer) => void,
): Promise<RipgrepExit> {
  return new Promise((resolve, reject) => {
    // stdin is /dev/null: given no path, ripgrep searches its working folder, not stdin.
    const child = spawn(ripgrepPath, args, { cwd: run.cwd, env: run.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    const stops = stopWhenAsked(child, run);
    child.stdout.on('data', onStdout);
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes < STDERR_MAX_BYTES) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on('error', (err) => {
      stops.release();
      reject(err);
    });
    child.on('close', (code, killedBy) => {
      stops.release();
      const text = Buffer.concat(stderr).subarray(0, STDERR_MAX_BYTES).toString('utf8');
      resolve({ code, signal: killedBy, stderr: text, stopped: stops.why() });
    });
  });
}

/**
 * Kills ripgrep at the time limit, on abort, or once the caller has enough, and says
 * which came first. SIGKILL: ripgrep has nothing to clean up, and starts no children of
 * its own here (no --pre, no decompression), so killing it ends the whole search.
 */
function stopWhenAsked(child: ChildProcess, { signal, timeLimitMs, enough }: RipgrepRun) {
  let stopped: RipgrepExit['stopped'] = null;
  const stop = (why: 'time' | 'abort' | 'enough') => {
    stopped ??= why;
    child.kill('SIGKILL');
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
