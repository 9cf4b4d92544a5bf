/**
 * Draws the person back when something waits: the tab title carries the count ("(2)
 * Gatehouse"), and in a browser a new card or question raises a Notification while the page
 * is hidden (if permission was granted in Settings). The desktop shell notifies by itself.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useApi } from '../api/api-context';
import { useAppStore, useAppStoreApi } from '../store/app-store';
import { describeWaiting, waitingCount, waitingItems, type WaitingItem } from '../store/waiting';

export const APP_TITLE = 'Gatehouse';

export function titleFor(count: number): string {
  return count > 0 ? `(${count}) ${APP_TITLE}` : APP_TITLE;
}

export function useAttention(): void {
  const api = useApi();
  const store = useAppStoreApi();
  const sessions = useAppStore((s) => s.sessions);
  const notificationsOn = useAppStore((s) => s.settings?.notifications !== false);
  const items = useMemo(() => waitingItems(sessions), [sessions]);
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    document.title = titleFor(waitingCount(items));
  }, [items]);

  useEffect(() => {
    const keys = new Set(items.map((i) => i.key));
    const before = seen.current;
    seen.current = keys;
    // The first look only learns what already waits: a reload must not notify about old cards.
    if (!before || api.getPathForFile !== undefined || !notificationsOn) return;
    if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    for (const item of items) if (!before.has(item.key) && item.kind !== 'unloaded') notify(item, store);
  }, [items, api, store, notificationsOn]);
}

function notify(item: WaitingItem, store: ReturnType<typeof useAppStoreApi>): void {
  const n = new Notification(`${item.title} is waiting for you`, { body: describeWaiting(item), tag: item.key });
  n.onclick = () => {
    window.focus();
    store.getState().openTab(item.sessionId);
    store.getState().requestFocus(item.sessionId, item.key);
    n.close();
  };
}
