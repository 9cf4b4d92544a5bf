import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../../renderer/src/App';
import { titleFor } from '../../../../renderer/src/hooks/useAttention';
import { createAppStore } from '../../../../renderer/src/store/app-store';
import { memoryStorage, question, renderFrame, seedSession, started, writeCard } from '../render-frame';

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static shown: { title: string; body?: string }[] = [];
  static requestPermission = vi.fn(async () => FakeNotification.permission);
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.shown.push({ title, body: options?.body });
  }
  close() {}
}

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  setHidden(false);
  FakeNotification.shown = [];
});

describe('attention', () => {
  it('puts the waiting count into the document title', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a' }, [...started(), writeCard('k1', '/w/a')]);
    seedSession(store, { id: 'b' }, [...started(), question('q1', 'Which?')]);
    renderFrame(<App />, { store });
    expect(document.title).toBe('(2) Gatehouse');
    expect(titleFor(0)).toBe('Gatehouse');
  });

  it('in a browser, notifies about a new card while the page is hidden, not about what waited already', () => {
    vi.stubGlobal('Notification', FakeNotification);
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', title: 'api', workspace: '/w' }, [...started(), writeCard('k1', '/w/old.ts')]);
    renderFrame(<App />, { store });
    setHidden(true);
    expect(FakeNotification.shown).toEqual([]);
    act(() =>
      seedSession(store, { id: 'a', title: 'api', workspace: '/w' }, [
        ...started(),
        writeCard('k1', '/w/old.ts'),
        writeCard('k2', '/w/new.ts'),
      ]),
    );
    expect(FakeNotification.shown).toEqual([{ title: 'api is waiting for you', body: 'write new.ts' }]);
  });

  it('does not notify while the page is visible, nor in Electron (the shell does)', () => {
    vi.stubGlobal('Notification', FakeNotification);
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a' }, started());
    renderFrame(<App />, { store });
    act(() => seedSession(store, { id: 'a' }, [...started(), writeCard('k1', '/w/a')]));
    expect(FakeNotification.shown).toEqual([]);

    const electron = createAppStore(memoryStorage());
    seedSession(electron, { id: 'e' }, started());
    renderFrame(<App />, { store: electron, getPathForFile: () => '' });
    setHidden(true);
    act(() => seedSession(electron, { id: 'e' }, [...started(), writeCard('k9', '/w/a')]));
    expect(FakeNotification.shown).toEqual([]);
  });

  it('reports the active session and visibility with app.activeSession, and switches tab on app.focusSession', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', title: 'api' });
    seedSession(store, { id: 'b', title: 'web' });
    store.getState().openTab('a');
    const { fake } = renderFrame(<App />, { store });
    expect(fake.requestsOf('app.activeSession').at(-1)).toMatchObject({ id: 'a' });
    act(() => fake.push({ name: 'app.focusSession', payload: { id: 'b' } }));
    expect(store.getState().activeId).toBe('b');
    expect(screen.getByRole('tab', { name: /web/ })).toHaveAttribute('aria-selected', 'true');
    expect(fake.requestsOf('app.activeSession').at(-1)).toMatchObject({ id: 'b' });
  });
});
