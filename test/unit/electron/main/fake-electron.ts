/**
 * A recording fake of the part of `electron` the shell uses (ElectronSurface): windows
 * with their options and web contents, IPC handlers, menus, the tray, notifications,
 * dialogs, safeStorage, the app's events, protocol handlers and session handlers. Tests
 * drive it (emit an event, click a menu item) and read what the shell did.
 */
import type {
  BrowserWindowConstructorOptions,
  MessageBoxOptions,
  NotificationConstructorOptions,
  OpenDialogOptions,
} from 'electron';
import type {
  AppLike,
  BrowserWindowLike,
  ElectronSurface,
  IpcEventLike,
  KeyPress,
  MenuItemConstructorOptions,
  MenuLike,
  NotificationLike,
  Rectangle,
  SessionLike,
  TrayLike,
  WebContentsLike,
} from '../../../../electron/main/electron-surface.js';

type Listener = (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): unknown[] {
    return (this.listeners.get(event) ?? []).map((l) => l(...args));
  }
  count(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/** A navigation-like event: records whether the shell prevented it. */
export class FakeEvent {
  prevented = false;
  preventDefault(): void {
    this.prevented = true;
  }
}

export class FakeSession implements SessionLike {
  permissionRequest: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
  permissionCheck: ((wc: unknown, permission: string) => boolean) | null = null;
  headersListener:
    | ((
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (r: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void)
    | null = null;
  setPermissionRequestHandler(handler: FakeSession['permissionRequest']): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheck']): void {
    this.permissionCheck = handler;
  }
  webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
}

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly keys: KeyPress[] = [];
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  destroyed = false;
  constructor(readonly session: FakeSession) {
    super();
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: (details: never) => never): void {
    this.openHandler = handler as unknown as FakeWebContents['openHandler'];
  }
  sendInputEvent(event: KeyPress): void {
    this.keys.push(event);
  }
  /** Emits a navigation event as Chromium would; true when the shell let it through. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    const e = new FakeEvent();
    this.emit(event, e, url);
    return !e.prevented;
  }
}

export class FakeWindow extends Emitter implements BrowserWindowLike {
  readonly webContents: FakeWebContents;
  loaded: string[] = [];
  shown = 0;
  focused = 0;
  restored = 0;
  minimized = false;
  maximized = false;
  destroyed = false;
  visible = false;
  constructor(
    readonly options: BrowserWindowConstructorOptions,
    session: FakeSession,
  ) {
    super();
    this.webContents = new FakeWebContents(session);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }
  show(): void {
    this.shown++;
    this.visible = true;
  }
  focus(): void {
    this.focused++;
  }
  restore(): void {
    this.restored++;
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isFocused(): boolean {
    return this.focused > 0;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  maximize(): void {
    this.maximized = true;
  }
  getNormalBounds(): Rectangle {
    return {
      x: (this.options.x as number) ?? 0,
      y: (this.options.y as number) ?? 0,
      width: this.options.width ?? 0,
      height: this.options.height ?? 0,
    };
  }
}

export class FakeMenu implements MenuLike {
  constructor(readonly template: MenuItemConstructorOptions[]) {}
  get items(): readonly unknown[] {
    return this.template;
  }
  /** The item at a path of labels (or roles), e.g. ['File', 'Open Folder…']. */
  item(...labels: string[]): MenuItemConstructorOptions {
    let items = this.template;
    let found: MenuItemConstructorOptions | undefined;
    for (const label of labels) {
      found = items.find((i) => i.label === label || i.role === label);
      if (!found) throw new Error(`no menu item ${labels.join(' > ')}`);
      items = (found.submenu as MenuItemConstructorOptions[] | undefined) ?? [];
    }
    return found!;
  }
  /** Clicks an item as the user would. */
  click(...labels: string[]): void {
    const item = this.item(...labels);
    (item.click as (() => void) | undefined)?.();
  }
}

export class FakeTray extends Emitter implements TrayLike {
  tooltip = '';
  menu: FakeMenu | null = null;
  destroyed = false;
  constructor(readonly icon: string) {
    super();
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: MenuLike | null): void {
    this.menu = menu as FakeMenu | null;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class FakeNotification extends Emitter implements NotificationLike {
  shown = false;
  constructor(readonly options: NotificationConstructorOptions) {
    super();
  }
  show(): void {
    this.shown = true;
  }
}

export interface FakeElectronOptions {
  isPackaged?: boolean;
  userData?: string;
  home?: string;
  /** What requestSingleInstanceLock returns: false when another instance runs. */
  lock?: boolean;
  /** Whether the OS keyring works (ignored for 'basic_text', which has none). */
  encryption?: boolean;
  /** The Linux backend Electron picks: 'gnome_libsecret' unless told. */
  backend?: string;
  /** The button index showMessageBox resolves with. */
  messageBoxResponse?: number;
  openDialogPaths?: string[];
  notificationsSupported?: boolean;
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;

export function createFakeElectron(options: FakeElectronOptions = {}) {
  const defaultSession = new FakeSession();
  const windows: FakeWindow[] = [];
  const trays: FakeTray[] = [];
  const notifications: FakeNotification[] = [];
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const menus: FakeMenu[] = [];
  const messageBoxes: MessageBoxOptions[] = [];
  const openDialogs: OpenDialogOptions[] = [];
  const externalUrls: string[] = [];
  const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const privilegedSchemes: unknown[] = [];
  const badges: number[] = [];
  const appEvents = new Emitter();
  const calls: string[] = [];
  const safeStorage = fakeSafeStorage(options);
  let applicationMenu: FakeMenu | null = null;
  let userData = options.userData ?? '/data';

  const app: AppLike & { events: Emitter; calls: string[] } = {
    events: appEvents,
    calls,
    isPackaged: options.isPackaged ?? false,
    getPath: (name) => (name === 'home' ? (options.home ?? '/home/user') : userData),
    setPath: (_name, value) => {
      userData = value;
    },
    getAppPath: () => '/app',
    requestSingleInstanceLock: () => options.lock ?? true,
    quit: () => void calls.push('quit'),
    exit: (code) => void calls.push(`exit ${code ?? 0}`),
    whenReady: async () => {
      safeStorage.ready = true;
    },
    setBadgeCount: (count) => {
      badges.push(count ?? 0);
      return true;
    },
    on: (event, listener) => appEvents.on(event, listener),
  };

  const electron = {
    app,
    BrowserWindow: class extends FakeWindow {
      constructor(o: BrowserWindowConstructorOptions) {
        super(o, defaultSession);
        windows.push(this);
      }
    },
    ipcMain: {
      handle: (channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
    },
    Menu: {
      buildFromTemplate: (template: MenuItemConstructorOptions[]) => {
        const menu = new FakeMenu(template);
        menus.push(menu);
        return menu;
      },
      setApplicationMenu: (menu: MenuLike | null) => {
        applicationMenu = menu as FakeMenu | null;
      },
    },
    Tray: class extends FakeTray {
      constructor(icon: string) {
        super(icon);
        trays.push(this);
      }
    },
    Notification: class extends FakeNotification {
      static isSupported(): boolean {
        return options.notificationsSupported ?? true;
      }
      constructor(o: NotificationConstructorOptions) {
        super(o);
        notifications.push(this);
      }
    },
    safeStorage,
    dialog: {
      showOpenDialog: async (o: OpenDialogOptions) => {
        openDialogs.push(o);
        const paths = options.openDialogPaths ?? [];
        return { canceled: paths.length === 0, filePaths: paths };
      },
      showMessageBox: async (o: MessageBoxOptions) => {
        messageBoxes.push(o);
        return { response: options.messageBoxResponse ?? 0, checkboxChecked: false };
      },
    },
    shell: {
      openExternal: async (url: string) => void externalUrls.push(url),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => void privilegedSchemes.push(...schemes),
      handle: (scheme: string, handler: (request: Request) => Response | Promise<Response>) =>
        void protocolHandlers.set(scheme, handler),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: { defaultSession },
  } satisfies ElectronSurface;

  return {
    electron: electron as ElectronSurface,
    app,
    defaultSession,
    windows,
    trays,
    notifications,
    handlers,
    menus,
    messageBoxes,
    openDialogs,
    externalUrls,
    protocolHandlers,
    privilegedSchemes,
    badges,
    safeStorage,
    applicationMenu: () => applicationMenu,
    /** Invokes an IPC handler as a frame would. */
    invoke(channel: string, payload: unknown, frame: { url: string; parent: unknown } | null): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      return Promise.resolve(handler({ senderFrame: frame as IpcEventLike['senderFrame'] }, payload));
    },
  };
}

/** Electron's errors, word for word, so the shell meets what it would meet. */
const NOT_READY = 'safeStorage cannot be used before app is ready';
const CANNOT_ENCRYPT =
  'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.';
const CANNOT_DECRYPT =
  'Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.';

/**
 * safeStorage as Electron's source has it (shell/browser/api/electron_api_safe_storage.cc):
 * nothing works before the app is ready; the Linux backend reads 'unknown' until
 * availability is first asked; and with 'basic_text' (no keyring) encryption is available
 * only after setUsePlainTextEncryption(true), sealing with a built-in password.
 */
function fakeSafeStorage(options: FakeElectronOptions) {
  const backend = options.backend ?? 'gnome_libsecret';
  const state = { ready: false, usePlainText: false, backendPicked: false, plainTextSwitches: [] as boolean[] };
  const available = (): boolean => {
    if (!state.ready) return false;
    state.backendPicked = true;
    return backend === 'basic_text' ? state.usePlainText : (options.encryption ?? true);
  };
  const prefix = (): string => (backend === 'basic_text' ? 'plain-sealed:' : 'os-sealed:');
  return Object.assign(state, {
    isEncryptionAvailable: available,
    setUsePlainTextEncryption: (usePlainText: boolean) => {
      state.plainTextSwitches.push(usePlainText);
      state.usePlainText = usePlainText;
    },
    getSelectedStorageBackend: () => (state.ready && state.backendPicked ? backend : 'unknown'),
    encryptString: (plain: string): Buffer => {
      if (!available()) throw new Error(state.ready ? CANNOT_ENCRYPT : NOT_READY);
      return Buffer.from(`${prefix()}${Buffer.from(plain).toString('hex')}`);
    },
    decryptString: (sealed: Buffer): string => {
      if (!available()) throw new Error(state.ready ? CANNOT_DECRYPT : NOT_READY);
      return Buffer.from(sealed.toString().replace(/^(os|plain)-sealed:/, ''), 'hex').toString();
    },
  });
}
