/**
 * Showing the session the app asks for (issue 15, item 8): `npm start -- FOLDER` opened it,
 * and the window must show its tab with the composer focused, not "No session open". The
 * request may come before the session is in the store (the web page's first list, or the
 * shell's push following `sessions.changed`, folded a frame later); it waits for it.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../../../renderer/src/App';
import { showSession } from '../../../../renderer/src/hooks/show-session';
import { createAppStore } from '../../../../renderer/src/store/app-store';
import { summaryOf } from '../fake-api';
import { memoryStorage, renderFrame, seedSession, started, writeCard } from '../render-frame';

describe('showing the session the app asks for', () => {
  it('the page names it before the list arrived: its tab opens and the composer has the focus', async () => {
    const store = createAppStore(memoryStorage());
    showSession(store, 'n', { waitMs: 5000 });
    renderFrame(<App />, { store });
    expect(screen.getByText('No session open')).toBeInTheDocument();
    act(() => store.getState().setSummaries([summaryOf({ id: 'n', title: 'new-folder' })]));
    expect(screen.getByRole('tab', { name: /new-folder/ })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
  });

  it('app.focusSession for a session whose summary comes a moment later still opens it', async () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', title: 'api' });
    store.getState().openTab('a');
    const { fake } = renderFrame(<App />, { store });
    act(() => fake.push({ name: 'app.focusSession', payload: { id: 'b' } }));
    expect(store.getState().activeId).toBe('a');
    act(() => seedSession(store, { id: 'b', title: 'web' }));
    expect(screen.getByRole('tab', { name: /web/ })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
  });

  it('a session waiting on a card: the card gets the focus, not the composer', async () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', title: 'api', workspace: '/w' }, [...started(), writeCard('k1', '/w/a.ts')]);
    seedSession(store, { id: 'b', title: 'web' });
    store.getState().openTab('b');
    const { fake } = renderFrame(<App />, { store });
    act(() => fake.push({ name: 'app.focusSession', payload: { id: 'a' } }));
    await waitFor(() => expect(screen.getAllByRole('region', { name: 'Permission: write a.ts' })[0]).toHaveFocus());
  });

  it('a session that never appears is not waited on forever, and a stopped request opens nothing', async () => {
    const store = createAppStore(memoryStorage());
    renderFrame(<App />, { store });
    showSession(store, 'late', { waitMs: 10 });
    const stop = showSession(store, 'stopped', { waitMs: 5000 });
    stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    act(() => store.getState().setSummaries([summaryOf({ id: 'late' }), summaryOf({ id: 'stopped' })]));
    expect(store.getState().openIds).toEqual([]);
    expect(screen.queryAllByRole('tab')).toEqual([]);
  });
});
