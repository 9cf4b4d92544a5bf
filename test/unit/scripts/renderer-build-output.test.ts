/**
 * The window as `npm start` builds it (renderer/vite.config.ts, the command of
 * scripts/renderer-build.ts): no chunk near Vite's 500 kB warning (a newcomer's first
 * `npm start` read it as a problem), and the editor, the terminal and the highlighter still
 * load only when first shown, not with the first paint.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let outDir = '';
let output = '';
beforeAll(async () => {
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-renderer-build-'));
  const vite = path.join(REPO, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn', '--outDir', outDir];
  const build = spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8' });
  output = `${build.stdout}${build.stderr}`;
  if (build.status !== 0) throw new Error(`the renderer build failed:\n${output}`);
}, 120_000);
afterAll(async () => {
  await fs.rm(outDir, { recursive: true, force: true });
});

/** The scripts index.html loads or preloads: the first paint's JavaScript. */
async function firstLoad(): Promise<string[]> {
  const html = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
}

describe('the renderer build', () => {
  it('prints no warning', () => {
    expect(output).not.toMatch(/larger than|\(!\)/);
  });

  it('keeps every file under 500 kB', async () => {
    for (const name of await fs.readdir(path.join(outDir, 'assets'))) {
      if (!name.endsWith('.js')) continue;
      expect((await fs.stat(path.join(outDir, 'assets', name))).size, name).toBeLessThan(500 * 1000);
    }
  });

  it('leaves the editor, the terminal and the highlighter out of the first load', async () => {
    const first = await firstLoad();
    expect(first.some((f) => f.startsWith('index-'))).toBe(true);
    for (const lazy of ['CodeEditor-', 'TerminalPanel-', 'core-']) {
      expect(first.filter((f) => f.startsWith(lazy))).toEqual([]);
    }
    // What each first-load file was made from, by its source map.
    for (const file of first) {
      const text = await fs.readFile(path.join(outDir, 'assets', `${file}.map`), 'utf8').catch(() => null);
      if (text === null) continue; // the bundler's own runtime, made from no source
      const map = JSON.parse(text) as { sources: string[] };
      const lazyLibraries = map.sources.filter((s) => /node_modules\/(@xterm|@codemirror|highlight\.js)\//.test(s));
      expect(lazyLibraries, file).toEqual([]);
    }
  });
});
