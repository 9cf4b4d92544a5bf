/**
 * The shell's lifecycle, given the electron module's pieces: the single-instance lock,
 * start-up (core, scheme, CSP, permissions, IPC, menu, tray, window), a folder from the
 * command line or a second launch, and a clean shutdown that stops every turn, command
 * and terminal and flushes the logs before the process exits.
 */
import path from 'node:path';
import type { Push, SessionSummary } from '../../shared/contract.js';
import { agentModelEndpointFromEnv, agentModelOf } from '../core/agents/agent-model-endpoint.js';
import type { Core, CoreOptions } from '../core/core.js';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import { electronAttentionSink } from './attention-sink.js';
import { installCsp } from './csp.js';
import type { BrowserWindowLike, ElectronSurface } from './electron-surface.js';
import { focusSession, showWindow } from './focus-session.js';
import { forwardPushes, registerIpc, type CallGuard } from './ipc.js';
import { folderArgument } from './launch-args.js';
import { appMenuTemplate, shortcutKeyEvent } from './menu.js';
import { createNotifier } from './notify.js';
import { ptySpawnFrom, type Resources } from './resources.js';
import { devServerUrlFor, rendererStartUrl } from './renderer-origin.js';
import {
  confirmPlainTextKey,
  keyStorageOf,
  PLAIN_TEXT_REFUSED,
  PlainTextConsent,
  safeStorageCipher,
  storesKey,
} from './secrets.js';
import { createAppTray, type AppTray } from './tray.js';
import { createMainWindow, denyPermissions, hardenContents } from './window.js';
import { loadWindowState, saveWindowState } from './window-state.js';

/** A turn's tools get this long to stop and the logs to flush before the app exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 5_000;

export interface AppMainOptions {
  electron: ElectronSurface;
  createCore(options: CoreOptions): Promise<Core>;
  argv: readonly string[];
  /** process.defaultApp: started as `electron . [FOLDER]`, so argv names the app's path first. */
  defaultApp: boolean;
  cwd: string;
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** electron-vite's dev server (ELECTRON_RENDERER_URL); ignored in a packaged app. */
  devServerUrl: string | undefined;
  preload: string;
  rendererDir: string;
  diffWorkerUrl?: URL;
  resources: Resources;
  log?: (message: string) => void;
}

export interface RunningApp {
  core: Core;
  window(): BrowserWindowLike | null;
  openFolder(folder: string): Promise<SessionSummary | null>;
  shutdown(): Promise<void>;
}

/** Resolves null when another instance holds the lock (this one then quits). */
export async function runApp(options: AppMainOptions): Promise<RunningApp | null> {
  const { electron, platform } = options;
  const { app } = electron;
  const log = options.log ?? ((message: string) => console.error(`gatehouse: ${message}`));
  const devServerUrl = devServerUrlFor(app.isPackaged, options.devServerUrl);
  if (options.devServerUrl && devServerUrl === undefined) log('ELECTRON_RENDERER_URL is ignored in a packaged app');
  // Checked before anything starts: a bad value stops the app in words, never an agent pointed elsewhere.
  const agentModel = agentModelOf(agentModelEndpointFromEnv(options.env));
  // GATEHOUSE_HOME moves the whole profile, and with it the single-instance lock.
  if (options.env.GATEHOUSE_HOME) app.setPath('userData', path.resolve(options.env.GATEHOUSE_HOME));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  registerAppScheme(electron.protocol);

  let window: BrowserWindowLike | null = null;
  let core: Core | null = null;
  let running: RunningApp | null = null;
  let startupFolder = folderArgument(options.argv, options.defaultApp, options.cwd);
  const emit = (push: Push) => core?.host.emit(push);
  const focus = (id: string) => focusSession(window, emit, id);

  app.on('second-instance', (_event, argv, workingDirectory) => {
    showWindow(window);
    const folder = folderArgument(argv, options.defaultApp, workingDirectory);
    if (folder === null) return;
    if (running) void running.openFolder(folder);
    else startupFolder = folder;
  });

  // Every web contents ever created gets the same navigation, window.open and webview rules.
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, electron.shell, devServerUrl));

  await app.whenReady();

  const keyStorage = keyStorageOf(electron.safeStorage, platform);
  const plainTextConsent = new PlainTextConsent(electron.safeStorage);
  const tray = tryCreateTray(
    electron,
    options.resources.trayIcon,
    {
      focusSession: focus,
      showWindow: () => showWindow(window),
      quit: () => app.quit(),
    },
    log,
  );
  const notifier = createNotifier(electron, focus);
  const dataDir = app.getPath('userData');
  core = await options.createCore({
    dataDir,
    env: options.env,
    home: app.getPath('home'),
    cipher: safeStorageCipher(electron.safeStorage, keyStorage, plainTextConsent),
    keyStorage,
    attention: electronAttentionSink(app, tray, notifier),
    diffWorkerUrl: options.diffWorkerUrl,
    spawnPty: ptySpawnFrom(options.resources.nodePty),
    onUnexpected: (err) => log(`unexpected: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    ...(agentModel ? { agentModel } : {}),
  });
  const host = core.host;
  for (const bad of core.unreadable) log(`session ${bad.name} could not be read: ${bad.error}`);

  const session = electron.session.defaultSession;
  denyPermissions(session);
  installCsp(session, devServerUrl);
  serveRenderer(electron.protocol, options.rendererDir);

  // The first window may load before the page listens for pushes, so the startup folder's
  // tab is asked for again when the page first says which session it shows.
  let pageListening = false;
  let startupFocus: string | null = null;
  const pageReported = () => {
    pageListening = true;
    const id = startupFocus;
    startupFocus = null;
    if (id !== null) setImmediate(() => focus(id));
  };

  // The plain-text backend only obfuscates: the user says yes before a key goes there.
  const guard: CallGuard = async (name, payload) => {
    if (name === 'app.activeSession' && !pageListening) pageReported();
    if (name !== 'settings.set' || keyStorage !== 'plain-text' || !storesKey(payload)) return null;
    if (!(await confirmPlainTextKey(electron.dialog))) return PLAIN_TEXT_REFUSED;
    plainTextConsent.give();
    return null;
  };
  registerIpc(electron.ipcMain, host, { devServerUrl, guard });

  const openFolder = async (folder: string): Promise<SessionSummary | null> => {
    const reply = await host.call('sessions.open', { workspace: folder });
    if (!reply.ok) {
      await electron.dialog.showMessageBox({ type: 'error', message: `Cannot open ${folder}`, detail: reply.error });
      return null;
    }
    const summary = reply.data as SessionSummary;
    focus(summary.id);
    return summary;
  };

  const chooseFolder = async () => {
    if (!window) return;
    const picked = await electron.dialog.showOpenDialog({
      title: 'Open a folder',
      properties: ['openDirectory', 'createDirectory'],
    });
    const folder = picked.filePaths[0];
    if (!picked.canceled && folder) await openFolder(folder);
  };

  electron.Menu.setApplicationMenu(
    electron.Menu.buildFromTemplate(
      appMenuTemplate(
        {
          openFolder: () => void chooseFolder(),
          press: (shortcut) => window?.webContents.sendInputEvent(shortcutKeyEvent(shortcut, platform)),
          quit: () => app.quit(),
        },
        { platform, dev: devServerUrl !== undefined },
      ),
    ),
  );

  const openWindow = async () => {
    const state = await loadWindowState(dataDir, electron.screen.getAllDisplays());
    const created = createMainWindow(electron, {
      preload: options.preload,
      startUrl: rendererStartUrl(devServerUrl),
      devServerUrl,
      icon: options.resources.icon,
      state,
    });
    window = created;
    // The main process learns of a blur at once; the renderer's report follows over IPC.
    created.on('focus', () => core?.attention?.setShellFocused(true));
    created.on('blur', () => core?.attention?.setShellFocused(false));
    const stopPushes = forwardPushes(host, created.webContents);
    created.on('close', () => {
      const bounds = created.getNormalBounds();
      void saveWindowState(dataDir, { ...bounds, maximized: created.isMaximized() }).catch(() => undefined);
    });
    created.on('closed', () => {
      stopPushes();
      if (window === created) window = null;
    });
    await created.loadURL(rendererStartUrl(devServerUrl));
  };

  let closing: Promise<void> | null = null;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      tray?.destroy();
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref());
      await Promise.race([core!.dispose().catch((err) => log(`shutdown: ${String(err)}`)), timeout]);
    })();
    return closing;
  };
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void shutdown().finally(() => {
      closed = true;
      app.quit();
    });
  });
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!window) void openWindow();
  });

  await openWindow();
  running = { core, window: () => window, openFolder, shutdown };
  if (startupFolder !== null) {
    const opened = await openFolder(startupFolder);
    if (opened && !pageListening) startupFocus = opened.id;
  }
  return running;
}

/** A Linux desktop without a status area cannot show a tray; the app runs without one. */
function tryCreateTray(
  electron: ElectronSurface,
  icon: string,
  actions: Parameters<typeof createAppTray>[2],
  log: (message: string) => void,
): AppTray | null {
  try {
    return createAppTray(electron, icon, actions);
  } catch (err) {
    log(`no tray icon: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}
