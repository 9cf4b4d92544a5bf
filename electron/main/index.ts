/**
 * The Electron main process entry (built by electron-vite into out/main/index.js): wires
 * the real electron module into runApp. Everything it calls is unit-tested against a
 * fake of the module; this file only finds paths.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { rgPath } from '@vscode/ripgrep';
import { createCore } from '../core/core.js';
import { runApp } from './app-main.js';
import type { ElectronSurface } from './electron-surface.js';
import { locateResources, missingResources } from './resources.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const requireFromHere = createRequire(import.meta.url);
const surface: ElectronSurface = electron;
const resources = locateResources(
  { isPackaged: electron.app.isPackaged, appPath: electron.app.getAppPath(), resourcesPath: process.resourcesPath },
  { rgPath, nodePtyPackageJson: requireFromHere.resolve('node-pty/package.json') },
);
for (const missing of missingResources(resources)) console.error(`gatehouse: missing ${missing}`);

runApp({
  electron: surface,
  createCore,
  argv: process.argv,
  defaultApp: process.defaultApp === true,
  cwd: process.cwd(),
  platform: process.platform,
  env: process.env,
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
  // electron-vite's layout: out/main, out/preload, out/renderer.
  preload: path.join(here, '..', 'preload', 'index.cjs'),
  rendererDir: path.join(here, '..', 'renderer'),
  diffWorkerUrl: new URL('./diff-worker.js', import.meta.url),
  resources,
}).catch((err: unknown) => {
  console.error('gatehouse: could not start:', err);
  electron.app.exit(1);
});
