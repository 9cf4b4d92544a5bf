/**
 * Open tabs and the active one, kept in localStorage so a reload shows the same tabs.
 * A tab is a view of a session: closing it never deletes the session.
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';

export const TABS_STORAGE_KEY = 'gatehouse.tabs';

export interface TabsSlice {
  openIds: string[];
  activeId: string | null;
  /** Opens (or brings forward) the tab of a session. */
  openTab(id: string): void;
  closeTab(id: string): void;
  activateTab(id: string): void;
  /** Ctrl+1–9: the nth tab (0-based); 8 is always the last, as in browsers. */
  activateIndex(index: number): void;
  /** Drops tabs whose session no longer exists. */
  keepTabs(existing: ReadonlySet<string>): void;
}

interface Persisted {
  openIds: string[];
  activeId: string | null;
}

export function loadTabs(storage: Storage | undefined): Persisted {
  try {
    const raw = storage?.getItem(TABS_STORAGE_KEY);
    if (!raw) return { openIds: [], activeId: null };
    const parsed = JSON.parse(raw) as Partial<Persisted>;
    const openIds = Array.isArray(parsed.openIds) ? parsed.openIds.filter((x) => typeof x === 'string') : [];
    const activeId = typeof parsed.activeId === 'string' && openIds.includes(parsed.activeId) ? parsed.activeId : null;
    return { openIds, activeId: activeId ?? openIds[0] ?? null };
  } catch {
    // A damaged entry only costs the remembered tabs.
    return { openIds: [], activeId: null };
  }
}

export function saveTabs(storage: Storage | undefined, tabs: Persisted): void {
  try {
    storage?.setItem(TABS_STORAGE_KEY, JSON.stringify({ openIds: tabs.openIds, activeId: tabs.activeId }));
  } catch {
    // Storage full or denied: tabs are a convenience, not data.
  }
}

export function createTabsSlice(storage: Storage | undefined): StateCreator<AppState, [], [], TabsSlice> {
  return (set, get) => {
    const persist = () => saveTabs(storage, { openIds: get().openIds, activeId: get().activeId });
    return {
      ...loadTabs(storage),
      openTab: (id) => {
        set((s) => ({ openIds: s.openIds.includes(id) ? s.openIds : [...s.openIds, id], activeId: id }));
        persist();
      },
      closeTab: (id) => {
        set((s) => {
          const at = s.openIds.indexOf(id);
          if (at < 0) return s;
          const openIds = s.openIds.filter((x) => x !== id);
          const activeId = s.activeId === id ? (openIds[Math.min(at, openIds.length - 1)] ?? null) : s.activeId;
          return { openIds, activeId };
        });
        persist();
      },
      activateTab: (id) => {
        if (!get().openIds.includes(id)) return;
        set({ activeId: id });
        persist();
      },
      activateIndex: (index) => {
        const ids = get().openIds;
        const id = index >= 8 ? ids.at(-1) : ids[index];
        if (id !== undefined) get().activateTab(id);
      },
      keepTabs: (existing) => {
        set((s) => {
          const openIds = s.openIds.filter((id) => existing.has(id));
          if (openIds.length === s.openIds.length) return s;
          const activeId = s.activeId && openIds.includes(s.activeId) ? s.activeId : (openIds[0] ?? null);
          return { openIds, activeId };
        });
        persist();
      },
    };
  };
}
