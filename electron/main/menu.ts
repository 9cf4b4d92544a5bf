/**
 * The application menu. Items that the renderer also has as keyboard shortcuts (new
 * session, close tab, settings, the terminal) show the same accelerator and, when
 * clicked, press that key in the page, so there is one table of shortcuts (the
 * renderer's: renderer/src/hooks/shortcut-table.ts) and the menu cannot drift from it. Such accelerators are not registered with
 * the OS (registerAccelerator: false), so the key reaches the page as typed. Open
 * Folder… is the shell's own: it shows the OS dialog.
 */
import type { KeyPress, MenuItemConstructorOptions } from './electron-surface.js';

/** The renderer's shortcuts, as Electron accelerators and as the key pressed in the page. */
export const RENDERER_SHORTCUTS = {
  newSession: { accelerator: 'CmdOrCtrl+T', keyCode: 't' },
  closeTab: { accelerator: 'CmdOrCtrl+W', keyCode: 'w' },
  settings: { accelerator: 'CmdOrCtrl+,', keyCode: ',' },
  terminal: { accelerator: 'CmdOrCtrl+`', keyCode: '`' },
  context: { accelerator: 'CmdOrCtrl+Shift+M', keyCode: 'm' },
  review: { accelerator: 'CmdOrCtrl+Shift+G', keyCode: 'g' },
} as const;
export type RendererShortcut = keyof typeof RENDERER_SHORTCUTS;

/** Ctrl+O is the renderer's own open-folder dialog (typed path with completion); this is the OS's. */
export const OPEN_FOLDER_ACCELERATOR = 'CmdOrCtrl+Shift+O';

export interface MenuActions {
  openFolder(): void;
  /** Presses the shortcut in the page. */
  press(shortcut: RendererShortcut): void;
  quit(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Development adds reload and the developer tools. */
  dev: boolean;
}

function rendererItem(label: string, shortcut: RendererShortcut, actions: MenuActions): MenuItemConstructorOptions {
  return {
    label,
    accelerator: RENDERER_SHORTCUTS[shortcut].accelerator,
    registerAccelerator: false,
    click: () => actions.press(shortcut),
  };
}

export function appMenuTemplate(actions: MenuActions, options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Folder…', accelerator: OPEN_FOLDER_ACCELERATOR, click: () => actions.openFolder() },
      rendererItem('New Session', 'newSession', actions),
      rendererItem('Close Tab', 'closeTab', actions),
      { type: 'separator' },
      rendererItem(mac ? 'Settings…' : 'Settings', 'settings', actions),
      ...(mac
        ? []
        : [{ type: 'separator' } as const, { label: 'Quit', accelerator: 'Ctrl+Q', click: () => actions.quit() }]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      rendererItem('Terminal', 'terminal', actions),
      rendererItem('What the Model Sees', 'context', actions),
      rendererItem('Review the Place’s Changes', 'review', actions),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(options.dev
        ? [{ type: 'separator' } as const, { role: 'reload' } as const, { role: 'toggleDevTools' } as const]
        : []),
    ],
  };
  const window: MenuItemConstructorOptions = {
    label: 'Window',
    submenu: [
      { role: 'minimize' },
      // Ctrl+W closes a tab (the renderer's), so closing the window needs the Shift.
      { role: 'close', accelerator: 'CmdOrCtrl+Shift+W' },
      ...(mac ? [{ type: 'separator' } as const, { role: 'front' } as const] : []),
    ],
  };
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: 'Gatehouse',
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { label: 'Quit Gatehouse', accelerator: 'Cmd+Q', click: () => actions.quit() },
          ],
        },
      ]
    : [];
  return [...appMenu, file, edit, view, window];
}

/** The key event that presses a shortcut in the page, for this platform's Cmd or Ctrl. */
export function shortcutKeyEvent(shortcut: RendererShortcut, platform: NodeJS.Platform): KeyPress {
  const { accelerator, keyCode } = RENDERER_SHORTCUTS[shortcut];
  const modifier = accelerator.startsWith('CmdOrCtrl') && platform === 'darwin' ? 'meta' : 'control';
  return { type: 'keyDown', keyCode, modifiers: accelerator.includes('+Shift+') ? [modifier, 'shift'] : [modifier] };
}
