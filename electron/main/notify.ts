/**
 * OS notifications for a card or question. Attention (the core) already decided that the
 * user should hear about it; this only shows it. Shown notifications are held until
 * clicked or replaced, since a collected one loses its click handler on some platforms.
 */
import type { ElectronSurface, NotificationLike } from './electron-surface.js';

/** Enough to cover a burst of cards; older ones are let go. */
const HELD_MAX = 20;

export interface Notifier {
  show(sessionId: string, title: string, body: string): void;
}

export function createNotifier(
  electron: Pick<ElectronSurface, 'Notification'>,
  onClick: (sessionId: string) => void,
): Notifier {
  const held: NotificationLike[] = [];
  return {
    show(sessionId, title, body) {
      if (!electron.Notification.isSupported()) return;
      const note = new electron.Notification({ title, body, silent: false });
      note.on('click', () => {
        held.splice(held.indexOf(note), 1);
        onClick(sessionId);
      });
      held.push(note);
      if (held.length > HELD_MAX) held.shift();
      note.show();
    },
  };
}
