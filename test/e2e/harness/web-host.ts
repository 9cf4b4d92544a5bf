/**
 * The real web host (`npm run serve`) as a child process on a data folder: started, its
 * printed URL parsed, killed with SIGKILL like a crash, and started again on the same data
 * folder and, when it is free again, the same port (so an open page reconnects by itself).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './repo-root.js';

/** The entry point the web-host engineer provides; GATEHOUSE_SERVE overrides it. */
export const SERVE_SCRIPT = process.env.GATEHOUSE_SERVE ?? path.join(REPO_ROOT, 'scripts', 'serve.ts');

const URL_PATTERN = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/\S*/;
const START_TIMEOUT_MS = 90_000;

export interface WebHostOptions {
  dataDir: string;
  home: string;
  /** 0 picks a free port. */
  port?: number;
  extraArgs?: string[];
  /** Set on top of the host's environment (a test's agent key, npm's offline cache). */
  env?: Record<string, string>;
}

export interface WebHost {
  /** The URL the host printed, token included. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** SIGKILL, as a crash: no clean-up runs. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** The environment of the host: no provider keys, a home of its own. */
function hostEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GATEHOUSE_HOME']) delete env[name];
  return env;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  if (!existsSync(SERVE_SCRIPT)) {
    throw new Error(`The web host entry ${SERVE_SCRIPT} does not exist yet (npm run serve); the e2e suite drives it.`);
  }
  const args = [
    '--import',
    'tsx',
    SERVE_SCRIPT,
    '--port',
    String(options.port ?? 0),
    '--data-dir',
    options.dataDir,
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...hostEnv(options.home), ...options.env },
    stdio: 'pipe',
  });
  // A test process that dies (a crash, a timeout kill) must not leave the host running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let printed = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (printed += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (printed += s));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`printed no URL within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const onData = () => {
      const match = URL_PATTERN.exec(printed);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[0]);
    };
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`web host (${args.slice(2).join(' ')}) ${why}. Its output:\n${printed}`));
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before printing its URL`));
  });
  const kill = async () => {
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    output: () => printed,
    kill,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

/** Starts the host again on the same data folder, preferring the port it had. */
export async function restartWebHost(previous: WebHost, options: WebHostOptions): Promise<WebHost> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await startWebHost({ ...options, port: previous.port });
    } catch (err) {
      // The port can stay taken a moment after a kill; after that, any port will do.
      if (Date.now() > deadline) return startWebHost({ ...options, port: 0 });
      if (!/EADDRINUSE/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
