/* eslint-disable @typescript-eslint/no-explicit-any -- Electron's own event listener types are overloads over any[] */
/**
 * The part of the `electron` module the shell uses, as narrow structural types. Every
 * function in electron/main takes these pieces as parameters, so the unit tests can pass
 * a recording fake (test/unit/electron/main/fake-electron.ts) and index.ts the real module.
 */
import type {
  BrowserWindowConstructorOptions,
  CustomScheme,
  HandlerDetails,
  MenuItemConstructorOptions,
  MessageBoxOptions,
  MessageBoxReturnValue,
  NotificationConstructorOptions,
  OpenDialogOptions,
  OpenDialogReturnValue,
  Rectangle,
  WindowOpenHandlerResponse,
} from 'electron';

export type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, Rectangle };

/** A key pressed in the page (sendInputEvent). */
export interface KeyPress {
  type: 'keyDown';
  keyCode: string;
  modifiers: ('control' | 'meta' | 'shift')[];
}

export interface FrameLike {
  url: string;
  parent: FrameLike | null;
}

export interface IpcEventLike {
  senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
}

export interface SessionLike {
  setPermissionRequestHandler(
    handler: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
  ): void;
  setPermissionCheckHandler(handler: ((wc: unknown, permission: string) => boolean) | null): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void,
    ): void;
  };
}

export interface WebContentsLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void;
  sendInputEvent(event: KeyPress): void;
  session: SessionLike;
}

export interface BrowserWindowLike {
  webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  on(event: string, listener: (...args: any[]) => void): unknown;
  once(event: string, listener: (...args: any[]) => void): unknown;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isFocused(): boolean;
  isVisible(): boolean;
  isDestroyed(): boolean;
  maximize(): void;
  getNormalBounds(): Rectangle;
}

export interface BrowserWindowCtor {
  new (options: BrowserWindowConstructorOptions): BrowserWindowLike;
}

export interface MenuLike {
  readonly items: readonly unknown[];
}

export interface MenuStatic {
  buildFromTemplate(template: MenuItemConstructorOptions[]): MenuLike;
  setApplicationMenu(menu: MenuLike | null): void;
}

export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: MenuLike | null): void;
  on(event: string, listener: (...args: any[]) => void): unknown;
  destroy(): void;
}

export interface TrayCtor {
  new (icon: string): TrayLike;
}

export interface NotificationLike {
  on(event: string, listener: (...args: any[]) => void): unknown;
  show(): void;
}

export interface NotificationStatic {
  new (options: NotificationConstructorOptions): NotificationLike;
  isSupported(): boolean;
}

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
  /** Linux: lets the 'basic_text' backend (no keyring) obfuscate; a no-op elsewhere. */
  setUsePlainTextEncryption(usePlainText: boolean): void;
  /** Linux only: the backend Electron picked, 'unknown' until availability is first asked. */
  getSelectedStorageBackend?(): string;
}

/** The un-parented forms: a structural window type cannot stand in for Electron's BaseWindow. */
export interface DialogLike {
  showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
  showMessageBox(options: MessageBoxOptions): Promise<MessageBoxReturnValue>;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: CustomScheme[]): void;
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

export interface ScreenLike {
  getAllDisplays(): { workArea: Rectangle }[];
}

export interface AppLike {
  readonly isPackaged: boolean;
  getPath(name: 'userData' | 'home'): string;
  setPath(name: 'userData', value: string): void;
  getAppPath(): string;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  exit(code?: number): void;
  whenReady(): Promise<unknown>;
  setBadgeCount(count?: number): boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
}

/** Everything the shell takes from `electron`, in one object. */
export interface ElectronSurface {
  app: AppLike;
  BrowserWindow: BrowserWindowCtor;
  ipcMain: IpcMainLike;
  Menu: MenuStatic;
  Tray: TrayCtor;
  Notification: NotificationStatic;
  safeStorage: SafeStorageLike;
  dialog: DialogLike;
  shell: ShellLike;
  protocol: ProtocolLike;
  screen: ScreenLike;
  session: { defaultSession: SessionLike };
}
