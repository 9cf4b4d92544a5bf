/**
 * The built renderer must be there and newer than its sources before a host serves it;
 * otherwise Vite builds it (a few seconds, once).
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = path.join(ROOT, 'out', 'renderer', 'index.html');
/** The renderer imports shared/ too: a change there changes the bundle. */
const SOURCES = [path.join(ROOT, 'renderer'), path.join(ROOT, 'shared')];

/** 'missing', 'stale' (a source file is newer than the built index.html) or 'fresh'. */
export async function rendererBuildState(
  builtIndex = BUILT,
  sources: readonly string[] = SOURCES,
): Promise<'missing' | 'stale' | 'fresh'> {
  const built = await fs.stat(builtIndex).catch(() => null);
  if (!built) return 'missing';
  for (const dir of sources) if ((await newestMtime(dir)) > built.mtimeMs) return 'stale';
  return 'fresh';
}

/** Builds when `when` includes the current state; prints one line saying so. */
export async function ensureRendererBuilt(when: readonly ('missing' | 'stale')[]): Promise<void> {
  const state = await rendererBuildState();
  if (state === 'fresh' || !when.includes(state)) return;
  console.log(
    `Building the window (renderer ${state === 'missing' ? 'not built yet' : 'changed since the last build'})...`,
  );
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the renderer build failed (see above); try `npm run build:renderer`');
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || entry.parentPath.includes(`${path.sep}node_modules`)) continue;
    const stat = await fs.stat(path.join(entry.parentPath, entry.name)).catch(() => null);
    if (stat && stat.mtimeMs > newest) newest = stat.mtimeMs;
  }
  return newest;
}
