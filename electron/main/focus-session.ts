/** Brings the window forward and asks the renderer to show one session's tab. */
import type { Push } from '../../shared/contract.js';
import type { BrowserWindowLike } from './electron-surface.js';

export function showWindow(window: BrowserWindowLike | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

export function focusSession(window: BrowserWindowLike | null, emit: (push: Push) => void, id: string): void {
  showWindow(window);
  emit({ name: 'app.focusSession', payload: { id } });
}
