/**
 * The folders one e2e file works in, all under one temp root removed at the end: the app's
 * data folder (settings.json pointing at the fake model), a home of its own (so no real
 * ~/.gatehouse skills leak in) and any number of workspaces.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS_FILE } from '../../../electron/core/settings/app-settings.js';
import type { ModelConfig } from '../../../shared/contract.js';

export interface TempFolders {
  root: string;
  dataDir: string;
  home: string;
  /** Makes <root>/<name> with the given files (relative path -> content) and returns its real path. */
  workspace(name: string, files?: Record<string, string>): Promise<string>;
  remove(): Promise<void>;
}

export function fakeModelConfig(openaiBaseURL: string): ModelConfig {
  return { provider: 'openai-compatible', modelId: 'fake', baseURL: openaiBaseURL };
}

/**
 * `shown`: places the settings show to confined commands from the start, as a person adds
 * them in Settings (the MCP file shows the test server's folder, which its servers run from).
 */
export async function makeTempFolders(model: ModelConfig, shown: readonly string[] = []): Promise<TempFolders> {
  // realpath: /tmp may be a symlink, and cards show resolved paths.
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-e2e-')));
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  await fs.mkdir(dataDir);
  await fs.mkdir(home);
  for (const place of shown) await fs.mkdir(place, { recursive: true });
  await fs.writeFile(path.join(dataDir, SETTINGS_FILE), JSON.stringify({ model, shownPlaces: shown }, null, 2));
  return {
    root,
    dataDir,
    home,
    async workspace(name, files = {}) {
      const dir = path.join(root, name);
      await fs.mkdir(dir, { recursive: true });
      for (const [rel, content] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
        await fs.writeFile(path.join(dir, rel), content);
      }
      return dir;
    },
    remove: () => fs.rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}
