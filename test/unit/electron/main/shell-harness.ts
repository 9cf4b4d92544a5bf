/**
 * The whole shell (runApp) over the recording fake of electron and a real core in a temp
 * data folder: what the app does at start-up, on IPC, on a tray or notification click.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Push, Reply } from '../../../../shared/contract.js';
import { createCore, type Core, type CoreOptions } from '../../../../electron/core/core.js';
import { runApp, type RunningApp } from '../../../../electron/main/app-main.js';
import { APP_START_URL } from '../../../../electron/main/renderer-origin.js';
import { callChannel, PUSH_CHANNEL } from '../../../../electron/main/ipc-channels.js';
import type { CallName } from '../../../../shared/contract.js';
import { createFakeElectron, type FakeElectron, type FakeElectronOptions, type FakeWindow } from './fake-electron.js';

export interface Shell {
  root: string;
  fake: FakeElectron;
  app: RunningApp | null;
  logs: string[];
  /** Every reply the window got over IPC. */
  replies: unknown[];
  /** Every CoreOptions the shell passed to createCore. */
  coreOptions: CoreOptions[];
  window(): FakeWindow;
  /** Calls the contract over IPC as the app's own top frame does. */
  call<N extends CallName>(name: N, payload: unknown): Promise<Reply<unknown>>;
  /** The pushes the window received. */
  pushes(): Push[];
  workspace(name: string): Promise<string>;
  close(): Promise<void>;
}

export const TOP_FRAME = { url: APP_START_URL, parent: null };

export async function startShell(
  options: FakeElectronOptions & {
    argv?: string[];
    /** process.defaultApp; true unless packaged, as `electron .` runs it. */
    defaultApp?: boolean;
    cwd?: string;
    platform?: NodeJS.Platform;
    env?: Record<string, string>;
    /** ELECTRON_RENDERER_URL as index.ts passes it. */
    devServerUrl?: string;
  } = {},
): Promise<Shell> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-shell-')));
  const fake = createFakeElectron({ userData: path.join(root, 'data'), home: root, ...options });
  const logs: string[] = [];
  const coreOptions: CoreOptions[] = [];
  const replies: unknown[] = [];
  const app = await runApp({
    electron: fake.electron,
    createCore: (o: CoreOptions): Promise<Core> => {
      coreOptions.push(o);
      return createCore({ ...o, durability: 'none' });
    },
    argv: options.argv ?? ['/usr/bin/electron', '.'],
    defaultApp: options.defaultApp ?? !options.isPackaged,
    cwd: options.cwd ?? root,
    platform: options.platform ?? 'linux',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
    devServerUrl: options.devServerUrl,
    preload: '/app/out/preload/index.cjs',
    rendererDir: '/app/out/renderer',
    resources: { ripgrep: '/rg', nodePty: '/node-pty', icon: '/icons/icon.png', trayIcon: '/icons/tray/tray.png' },
    log: (m) => logs.push(m),
  });
  const shell: Shell = {
    root,
    fake,
    app,
    logs,
    replies,
    coreOptions,
    window: () => {
      const w = fake.windows.at(-1);
      if (!w) throw new Error('no window');
      return w;
    },
    call: async (name, payload) => {
      const reply = (await fake.invoke(callChannel(name), payload, TOP_FRAME)) as Reply<unknown>;
      replies.push(reply);
      return reply;
    },
    pushes: () =>
      (fake.windows.at(-1)?.webContents.sent ?? [])
        .filter((s) => s.channel === PUSH_CHANNEL)
        .map((s) => s.args[0] as Push),
    workspace: async (name) => {
      const dir = path.join(root, name);
      await fs.mkdir(dir, { recursive: true });
      return dir;
    },
    close: async () => {
      await app?.shutdown();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
  return shell;
}
