/**
 * The renderer's one store, made of its slices. It is created per app (and per test), never
 * at module level, and reaches components through context.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { createSessionsSlice, type SessionsSlice } from './sessions-slice';
import { createTabsSlice, type TabsSlice } from './tabs-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type AppState = SessionsSlice & TabsSlice & UiSlice;
export type AppStore = StoreApi<AppState>;

export function createAppStore(storage: Storage | undefined = globalThis.localStorage): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createSessionsSlice(...a),
    ...createTabsSlice(storage)(...a),
    ...createUiSlice(...a),
  }));
}

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside <StoreProvider>');
  return store;
}

export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/** Stands in where a component renders without the app's store (a card shown on its own). */
const NO_SETTINGS: StoreApi<Pick<AppState, 'settings'>> = createStore(() => ({ settings: null }));

/** Opens the active session's review (SPEC §15); null where a card renders without the app's store. */
export function useOpenReview(): (() => void) | null {
  const store = useContext(StoreContext);
  return store ? () => store.getState().openDialog('review') : null;
}

/** The user's home folder as settings.get reported it; undefined before that, or with no store. */
export function useHomeFolder(): string | undefined {
  const store: StoreApi<Pick<AppState, 'settings'>> = useContext(StoreContext) ?? NO_SETTINGS;
  return useStore(store, (s) => s.settings?.home);
}
