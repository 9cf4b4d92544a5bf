/**
 * The one app window, locked down: an isolated, sandboxed renderer without Node, the CSP,
 * no navigation away from the app, no new windows (https: links go to the OS browser), no
 * <webview>, and every permission request denied.
 */
import type {
  BrowserWindowConstructorOptions,
  BrowserWindowLike,
  ElectronSurface,
  SessionLike,
  WebContentsLike,
} from './electron-surface.js';
import { openExternalIfSafe } from './external-links.js';
import { isRendererUrl } from './renderer-origin.js';
import { DEFAULT_SIZE, MIN_SIZE, type WindowState } from './window-state.js';

export interface MainWindowOptions {
  preload: string;
  startUrl: string;
  devServerUrl: string | undefined;
  icon?: string;
  state: WindowState | null;
}

export function mainWindowOptions(options: MainWindowOptions): BrowserWindowConstructorOptions {
  const place = options.state
    ? { x: options.state.x, y: options.state.y, width: options.state.width, height: options.state.height }
    : DEFAULT_SIZE;
  return {
    ...place,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Gatehouse',
    show: false,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

export function createMainWindow(
  electron: Pick<ElectronSurface, 'BrowserWindow' | 'shell'>,
  options: MainWindowOptions,
): BrowserWindowLike {
  const window = new electron.BrowserWindow(mainWindowOptions(options));
  hardenContents(window.webContents, electron.shell, options.devServerUrl);
  if (options.state?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  return window;
}

const hardened = new WeakSet<WebContentsLike>();

/**
 * Applied to the window's contents (and, from index.ts, to any contents ever created):
 * navigation stays inside the app, window.open never opens a window, webviews never attach.
 */
export function hardenContents(
  contents: WebContentsLike,
  shell: ElectronSurface['shell'],
  devServerUrl: string | undefined,
): void {
  // Once per contents, or a link would open twice.
  if (hardened.has(contents)) return;
  hardened.add(contents);
  const stayInApp = (event: { preventDefault(): void }, url: string) => {
    if (!isRendererUrl(url, devServerUrl)) {
      event.preventDefault();
      openExternalIfSafe(shell, url);
    }
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(shell, url);
    return { action: 'deny' };
  });
}

/** No camera, microphone, geolocation, notifications permission for the page, nothing. */
export function denyPermissions(session: SessionLike): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
