/**
 * `npm start`'s first choice: build with electron-vite and run the Electron app, passing a
 * FOLDER through (resolved against the folder npm was started from). Where Electron cannot
 * start, says why in one line and lets the caller fall back to the web host.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkElectron } from './electron-binary.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folder argument made absolute: npm runs scripts in the package root, not the user's folder. */
export function folderArgs(args: readonly string[], userCwd: string): string[] {
  return args.map((arg) => (arg.startsWith('-') ? arg : path.resolve(userCwd, arg)));
}

/**
 * Runs the Electron app until it exits and resolves its exit code, or resolves null after
 * printing why it cannot run here.
 */
export async function startElectron(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number | null> {
  const check = checkElectron(path.join(ROOT, 'node_modules', 'electron'), process.platform, env);
  if (!check.ok) {
    console.log(check.reason);
    return null;
  }
  const build = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error('the app build failed (see above); try `npm run build`');
  const child = spawn(check.binary, ['.', ...folderArgs(args, env.INIT_CWD ?? process.cwd())], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}
