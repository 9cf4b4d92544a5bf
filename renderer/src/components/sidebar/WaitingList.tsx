/**
 * "Waiting for you": every open card and question of every session, oldest first. One click
 * brings the session's tab forward and moves focus to the card.
 */
import { useMemo } from 'react';
import { useNow } from '../../hooks/useNow';
import { useAppStore } from '../../store/app-store';
import { describeWaiting, waitingCount, waitingItems, type WaitingItem } from '../../store/waiting';
import { shortRelativeTime } from '../frame/relative-time';

export function WaitingList() {
  const sessions = useAppStore((s) => s.sessions);
  const openTab = useAppStore((s) => s.openTab);
  const now = useNow();
  const requestFocus = useAppStore((s) => s.requestFocus);
  const items = useMemo(() => waitingItems(sessions), [sessions]);
  const count = waitingCount(items);

  const focus = (item: WaitingItem) => {
    openTab(item.sessionId);
    requestFocus(item.sessionId, item.kind === 'unloaded' ? null : item.key);
  };

  return (
    <div className={`waiting${count > 0 ? ' waiting-some' : ''}`}>
      <h2 id="waiting-heading" className="sidebar-heading">
        Waiting for you{count > 0 ? ` (${count})` : ''}
      </h2>
      {items.length === 0 ? (
        <p className="sidebar-empty">Nothing is waiting.</p>
      ) : (
        <ul className="waiting-list" aria-label="Waiting for you">
          {items.map((item) => (
            <li key={item.key}>
              <button type="button" className="waiting-item" onClick={() => focus(item)} title={item.workspace}>
                <span className="waiting-session">{item.title}</span>
                <span className="waiting-what">{describeWaiting(item)}</span>
                <span className="waiting-time">{shortRelativeTime(item.ts, now)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
