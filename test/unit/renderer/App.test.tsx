import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/App';
import { createAppStore } from '../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from './fake-api';
import { memoryStorage, renderFrame, seedSession, started, writeCard } from './render-frame';

describe('the frame', () => {
  it('with no tab open, says how to start', () => {
    renderFrame(<App />);
    expect(screen.getByRole('navigation', { name: 'Sessions' })).toBeInTheDocument();
    expect(screen.getByText(/Drag a folder onto this window, or press/)).toBeInTheDocument();
    expect(screen.queryAllByRole('tab')).toEqual([]);
  });

  it('has one level-one heading on every screen: the empty state’s, else the session’s (for screen readers)', () => {
    const store = createAppStore(memoryStorage());
    renderFrame(<App />, { store });
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['No session open']);
    act(() => {
      seedSession(store, { id: 'a', title: 'api', workspace: '/w' }, started());
      store.getState().openTab('a');
    });
    const [heading, ...more] = screen.getAllByRole('heading', { level: 1 });
    expect(more).toEqual([]);
    expect(heading).toHaveTextContent('Session api');
    expect(heading).toHaveClass('visually-hidden');
  });

  it('pins the open card between the transcript and the composer', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', workspace: '/w' }, [...started(), writeCard('k1', '/w/a.ts')]);
    store.getState().openTab('a');
    renderFrame(<App />, { store });
    const pinned = document.querySelector('.pinned')!;
    const composer = screen.getByRole('textbox', { name: 'Message' });
    expect(pinned).toContainElement(screen.getAllByRole('button', { name: 'Allow once' })[0] ?? null);
    expect(pinned.compareDocumentPosition(composer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a click in the waiting list brings the session forward and puts focus on its card', async () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', title: 'api', workspace: '/w' }, [...started(), writeCard('k1', '/w/a.ts')]);
    seedSession(store, { id: 'b', title: 'web' });
    store.getState().openTab('b');
    renderFrame(<App />, { store });
    const list = screen.getByRole('list', { name: 'Waiting for you' });
    await userEvent.click(within(list).getByRole('button', { name: /api/ }));
    expect(screen.getByRole('tab', { name: /api/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('region', { name: 'Permission: write a.ts' })[0]).toHaveFocus();
  });

  it('a card that goes up while the person types keeps the focus and the text in the composer', async () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', workspace: '/w' }, started());
    store.getState().openTab('a');
    renderFrame(<App />, { store });
    const composer = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(composer, 'half a thou');
    act(() => seedSession(store, { id: 'a', workspace: '/w' }, [...started(), writeCard('k1', '/w/a.ts')]));
    expect(screen.getAllByRole('region', { name: 'Permission: write a.ts' }).length).toBeGreaterThan(0);
    expect(composer).toHaveFocus();
    await userEvent.type(composer, 'ght');
    expect(composer).toHaveValue('half a thought');
  });

  it('keeps the oldest open card next to the composer, so a newer one appears above it', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', workspace: '/w' }, [
      ...started(),
      writeCard('k1', '/w/a.ts'),
      writeCard('k2', '/w/b.ts'),
    ]);
    store.getState().openTab('a');
    renderFrame(<App />, { store });
    const pinned = document.querySelector('.pinned')!;
    expect([...pinned.querySelectorAll('[data-pinned]')].map((el) => el.getAttribute('data-pinned'))).toEqual([
      'k1',
      'k2',
    ]);
  });

  it('says plainly when no model can run, with a way to Settings, and sessions stay browsable', async () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', title: 'api' });
    store.getState().setSettings({ ...SETTINGS_NONE, problem: 'No model is set: choose one in Settings.' });
    renderFrame(<App />, { store });
    expect(screen.getByText('No model is set: choose one in Settings.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /api/ }));
    expect(screen.getByRole('tab', { name: /api/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
  });

  it('shows a banner while the web host is unreachable', () => {
    const { fake, store } = renderFrame(<App />);
    act(() => store.getState().setConnection('reconnecting'));
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting');
    act(() => store.getState().setConnection('connected'));
    expect(screen.queryByText(/Reconnecting/)).toBeNull();
    expect(fake.calls.filter((c) => c.name !== 'app.activeSession')).toEqual([]);
  });
});
