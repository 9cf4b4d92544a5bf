/**
 * The shell's side of the core's Attention: the tray's menu and tooltip, the app badge
 * (where the OS has one: macOS, and Linux launchers that support it), and notifications.
 */
import type { AttentionSink, WaitingSession } from '../core/attention/attention.js';
import type { AppLike } from './electron-surface.js';
import type { Notifier } from './notify.js';
import type { AppTray } from './tray.js';

export function electronAttentionSink(
  app: Pick<AppLike, 'setBadgeCount'>,
  tray: AppTray | null,
  notifier: Notifier,
): AttentionSink {
  return {
    waitingChanged(list: WaitingSession[]) {
      tray?.update(list);
      app.setBadgeCount(list.reduce((sum, s) => sum + s.waiting, 0));
    },
    cardRaised(sessionId, title, body) {
      notifier.show(sessionId, title, body);
    },
  };
}
