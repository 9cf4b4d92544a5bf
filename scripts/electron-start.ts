/**
 * `npm start`'s first choice: build with electron-vite and run the Electron app, passing a
 * FOLDER through (resolved against the folder npm was started from). Where Electron cannot
 * start — no binary, no display, or a binary that fails as it starts (missing libraries,
 * the sandbox helper refused, root without --no-sandbox, a damaged download) — it says why
 * in one line and lets the caller fall back to the web host.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkElectron } from './electron-binary.js';
import { whyElectronDidNotRun, whyElectronStopped } from './electron-exit.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A failure within this long of the spawn is a failure to start: the known ones take well
 * under a second. Later, the person had the window, and a failure is the app's own exit.
 */
export const START_WINDOW_MS = 5_000;

/** The most of Electron's stderr kept to read a failure from; it is passed through whole. */
const STDERR_HEAD_BYTES = 16 * 1024;

/** It ran (until the person quit, or it failed after starting), or it could not start here. */
export type ElectronOutcome = { ran: true; code: number } | { ran: false; reason: string };

export interface ElectronStartOptions {
  /** `npm start -- --no-sandbox`: Chromium's sandbox off, as root or without a working helper. */
  noSandbox?: boolean;
  /** node_modules/electron, else the one beside this script. */
  electronDir?: string;
  /** Builds the app for Electron (electron-vite); throws when the build fails. */
  build?: () => void;
  /** Passed to runElectron. */
  run?: Partial<Omit<RunOptions, 'cwd' | 'env'>>;
}

/** The folder argument made absolute: npm runs scripts in the package root, not the user's folder. */
export function folderArgs(args: readonly string[], userCwd: string): string[] {
  return args.map((arg) => (arg.startsWith('-') ? arg : path.resolve(userCwd, arg)));
}

/** Runs the Electron app until it exits, or says why it cannot run here. */
export async function startElectron(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  options: ElectronStartOptions = {},
): Promise<ElectronOutcome> {
  const electronDir = options.electronDir ?? path.join(ROOT, 'node_modules', 'electron');
  const check = checkElectron(electronDir, process.platform, env);
  if (!check.ok) return { ran: false, reason: check.reason };
  (options.build ?? buildApp)();
  const switches = options.noSandbox ? ['--no-sandbox'] : [];
  const argv = [...switches, '.', ...folderArgs(args, env.INIT_CWD ?? process.cwd())];
  return runElectron(check.binary, argv, { ...options.run, cwd: ROOT, env });
}

function buildApp(): void {
  const build = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('the app build failed (see above); try `npm run build`');
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  startWindowMs?: number;
  /** Where Electron's stderr is passed on to (the terminal's). */
  stderr?: NodeJS.WritableStream;
  /** Where Ctrl-C and SIGTERM come from, to pass on to Electron (this process). */
  signals?: NodeJS.EventEmitter;
}

/**
 * Spawns the binary with the terminal's stdin and stdout, passes its stderr on while
 * keeping the first lines, and resolves when it exits. A failure within the start window
 * resolves { ran: false } with the reason; a clean exit, a failure after the window, or an
 * exit the person asked for with Ctrl-C resolves { ran: true }.
 */
export function runElectron(binary: string, argv: readonly string[], options: RunOptions): Promise<ElectronOutcome> {
  const startWindowMs = options.startWindowMs ?? START_WINDOW_MS;
  const stderr = options.stderr ?? process.stderr;
  const started = Date.now();
  const child = spawn(binary, argv, { cwd: options.cwd, env: options.env, stdio: ['inherit', 'inherit', 'pipe'] });
  let head = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.write(chunk);
    if (head.length < STDERR_HEAD_BYTES) head += chunk.toString('utf8');
  });
  // Ctrl-C before the window came up is the person stopping npm start, not a failure.
  let stopping = false;
  const forward = (signal: NodeJS.Signals) => {
    stopping = true;
    child.kill(signal);
  };
  const source = options.signals ?? process;
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) source.on(signal, forward);
  return new Promise((resolve) => {
    const settle = (outcome: ElectronOutcome) => {
      for (const signal of signals) source.off(signal, forward);
      resolve(outcome);
    };
    child.once('error', (err) => settle({ ran: false, reason: whyElectronDidNotRun(err) }));
    // 'close', not 'exit': the last of stderr has been read by then.
    child.once('close', (code, signal) => {
      const failed = code !== 0;
      const early = Date.now() - started < startWindowMs;
      if (failed && early && !stopping) settle({ ran: false, reason: whyElectronStopped({ code, signal }, head) });
      else settle({ ran: true, code: code ?? 1 });
    });
  });
}
