/**
 * Running the bundled ripgrep binary (from @vscode/ripgrep, so nothing needs installing)
 * and streaming its stdout to a consumer as it arrives.
 */
import { spawn } from 'node:child_process';
import { rgPath } from '@vscode/ripgrep';

/** Only the start of stderr is kept: enough for ripgrep's error message. */
const STDERR_MAX_BYTES = 8 * 1024;

export interface RipgrepExit {
  /** 0 matches found, 1 none, 2 an error (possibly alongside matches); null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
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
}

export function runRipgrep(
  args: readonly string[],
  run: RipgrepRun,
  onStdout: (chunk: Buffer) => void,
): Promise<RipgrepExit> {
  const { cwd, env, signal } = run;
  return new Promise((resolve, reject) => {
    // stdin is /dev/null: given no path, ripgrep searches its working folder, not stdin.
    const child = spawn(ripgrepPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    child.stdout.on('data', onStdout);
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes < STDERR_MAX_BYTES) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ABORT_ERR') reject(err);
    });
    child.on('close', (code, killedBy) => {
      const text = Buffer.concat(stderr).subarray(0, STDERR_MAX_BYTES).toString('utf8');
      resolve({ code, signal: killedBy, stderr: text });
    });
  });
}
