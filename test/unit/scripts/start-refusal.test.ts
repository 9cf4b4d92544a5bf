/**
 * `npm start -- ~` (issue 19, item 6): the refusal in one line on stderr, exit 2, and
 * nothing started: no Electron, no web host, no session in the data folder.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let root: string | undefined;
afterEach(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true });
  root = undefined;
});

/** Runs scripts/start.ts as `npm start` does, and gives up (killing it) after 30 s. */
function runStart(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    }),
  );
}

it('npm start -- ~ prints the refusal in one line and opens nothing', async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-start-refusal-')));
  const home = path.join(root, 'home');
  const dataDir = path.join(home, '.config', 'Gatehouse');
  await fs.mkdir(dataDir, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, INIT_CWD: home, GATEHOUSE_HOME: dataDir };

  const { code, out, err } = await runStart(['.'], env);

  expect(code).toBe(2);
  expect(out).toBe('');
  expect(err).toBe(
    "gatehouse: Gatehouse will not open your home folder as a workspace: a command there could reach every project and the app's own data. Open a project folder inside it, such as ~/code/myproject.\n",
  );
  expect(await fs.readdir(dataDir)).toEqual([]);
});
