/**
 * The real Electron app through Playwright's _electron: it launches, the window shows the
 * app over the preload's contract, a workspace opens, and a write card goes up and is
 * answered. It runs wherever an Electron binary exists (and, on Linux, a display); here,
 * where the binary cannot be downloaded, it skips and says why.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CALL_NAMES } from '../../shared/contract.js';
import { checkElectron } from '../../scripts/electron-binary.js';
import { startFakeModel, type FakeModel } from '../fake-model/server.js';
import { GatehousePage, visible, writeCardLabel } from './harness/gatehouse-page.js';
import { REPO_ROOT } from './harness/repo-root.js';
import { fakeModelConfig, makeTempFolders, type TempFolders } from './harness/temp-folders.js';
import { waitUntil } from './harness/wait-until.js';

const electron = checkElectron(path.join(REPO_ROOT, 'node_modules', 'electron'), process.platform, process.env);
if (!electron.ok) console.log(`electron smoke skipped: ${electron.reason.split(' — ')[0]}`);

describe.skipIf(!electron.ok)('the Electron app', () => {
  let fake: FakeModel;
  let folders: TempFolders;
  let app: ElectronApplication;
  let ui: GatehousePage;

  beforeAll(async () => {
    const build = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
    if (build.status !== 0) throw new Error('electron-vite build failed');
    fake = await startFakeModel();
    folders = await makeTempFolders(fakeModelConfig(fake.openaiBaseURL));
    app = await _electron.launch({
      executablePath: electron.ok ? electron.binary : undefined,
      args: ['.'],
      cwd: REPO_ROOT,
      env: { ...process.env, GATEHOUSE_HOME: folders.dataDir, HOME: folders.home } as Record<string, string>,
    });
    ui = new GatehousePage(await app.firstWindow());
    await visible(ui.sidebar(), 'the sidebar (nav "Sessions")');
  });

  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await folders?.remove();
  });

  test('launches one window on the app scheme, titled Gatehouse, with only the contract exposed', async () => {
    const windows = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows().map((w) => ({ url: w.webContents.getURL(), title: w.getTitle() })),
    );
    expect(windows).toHaveLength(1);
    expect(windows[0]!.url.startsWith('gatehouse://app/')).toBe(true);
    expect(windows[0]!.title).toBe('Gatehouse');
    const exposed = await ui.page.evaluate(() => ({
      api: Object.keys((globalThis as unknown as { gatehouse: object }).gatehouse).sort(),
      node: typeof (globalThis as { require?: unknown }).require,
    }));
    expect(exposed.api).toEqual([...CALL_NAMES, 'getPathForFile', 'subscribe'].sort());
    expect(exposed.node).toBe('undefined');
  });

  test('opens a workspace, and a write card goes up and is answered', async () => {
    const ws = await folders.workspace('smoke-ws', { 'notes.txt': 'alpha\n' });
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'alpha\nbeta\n' } }] },
      { text: 'Done.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Add beta to the notes');
    const card = await ui.waitForCard(writeCardLabel(ws, 'notes.txt'));
    await ui.answer(card, 'Allow once');
    await waitUntil(
      () => fs.readFile(path.join(ws, 'notes.txt'), 'utf8'),
      (text) => text === 'alpha\nbeta\n',
      'notes.txt written after Allow once',
    );
  });
});
