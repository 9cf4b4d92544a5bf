/**
 * The tray icon: its menu lists the sessions waiting for the user (a click focuses that
 * session's tab), and its tooltip says how many.
 */
import type { WaitingSession } from '../core/attention/attention.js';
import type { ElectronSurface, MenuItemConstructorOptions, TrayLike } from './electron-surface.js';

export interface TrayActions {
  focusSession(id: string): void;
  showWindow(): void;
  quit(): void;
}

export interface AppTray {
  update(waiting: readonly WaitingSession[]): void;
  destroy(): void;
}

/** Menu labels are plain text, but '&' marks a mnemonic on Windows and Linux: double it. */
function label(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return short.replace(/&/g, '&&');
}

export function trayTooltip(waiting: readonly WaitingSession[]): string {
  const count = waiting.reduce((sum, s) => sum + s.waiting, 0);
  return count === 0 ? 'Gatehouse' : `Gatehouse — ${count} waiting for you`;
}

export function trayMenuTemplate(
  waiting: readonly WaitingSession[],
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] =
    waiting.length === 0
      ? [{ label: 'Nothing is waiting for you', enabled: false }]
      : [
          { label: 'Waiting for you', enabled: false },
          ...waiting.map((s) => ({
            label: label(s.waiting > 1 ? `${s.title} (${s.waiting})` : s.title),
            click: () => actions.focusSession(s.id),
          })),
        ];
  return [
    ...items,
    { type: 'separator' },
    { label: 'Show Gatehouse', click: () => actions.showWindow() },
    { label: 'Quit Gatehouse', click: () => actions.quit() },
  ];
}

export function createAppTray(
  electron: Pick<ElectronSurface, 'Tray' | 'Menu'>,
  icon: string,
  actions: TrayActions,
): AppTray {
  const tray: TrayLike = new electron.Tray(icon);
  tray.on('click', () => actions.showWindow());
  const update = (waiting: readonly WaitingSession[]) => {
    tray.setToolTip(trayTooltip(waiting));
    tray.setContextMenu(electron.Menu.buildFromTemplate(trayMenuTemplate(waiting, actions)));
  };
  update([]);
  return { update, destroy: () => tray.destroy() };
}
