import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../../../../renderer/src/App';
import { commandFor } from '../../../../renderer/src/hooks/shortcut-table';
import { run } from '../../../../renderer/src/hooks/useShortcuts';
import { createFakeApi } from '../fake-api';
import { createAppStore } from '../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession, started, writeCard } from '../render-frame';

function appWithTabs() {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 'a', title: 'api' }, started());
  seedSession(store, { id: 'b', title: 'web' });
  seedSession(store, { id: 'c', title: 'docs' });
  for (const id of ['a', 'b', 'c']) store.getState().openTab(id);
  store.getState().activateTab('a');
  return renderFrame(<App />, { store });
}

const press = (keys: string) => userEvent.keyboard(keys);

describe('keyboard shortcuts', () => {
  it('Ctrl+1–9 switch tabs, Ctrl+9 being the last', async () => {
    const { store } = appWithTabs();
    await press('{Control>}2{/Control}');
    expect(store.getState().activeId).toBe('b');
    await press('{Control>}9{/Control}');
    expect(store.getState().activeId).toBe('c');
    expect(screen.getByRole('tab', { name: /docs/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('Ctrl+W closes the active tab, not the session', async () => {
    const { store, fake } = appWithTabs();
    await press('{Control>}w{/Control}');
    expect(store.getState().openIds).toEqual(['b', 'c']);
    expect(store.getState().sessions.a).toBeDefined();
    expect(fake.requestsOf('session.cancel')).toEqual([]);
  });

  it('Ctrl+O and Ctrl+T open the folder dialog', async () => {
    const { store } = appWithTabs();
    await press('{Control>}o{/Control}');
    expect(screen.getByRole('dialog', { name: 'Open a folder' })).toBeInTheDocument();
    await press('{Escape}');
    expect(store.getState().dialog).toBeNull();
    await press('{Control>}t{/Control}');
    expect(screen.getByRole('dialog', { name: 'Open a folder' })).toBeInTheDocument();
  });

  it('Esc in the composer cancels the active turn', async () => {
    const { fake } = appWithTabs();
    await userEvent.click(screen.getByRole('textbox', { name: 'Message' }));
    await press('{Escape}');
    expect(fake.requestsOf('session.cancel')).toEqual([{ id: 'a' }]);
  });

  it('Esc in a dialog closes the dialog and cancels nothing', async () => {
    const { fake } = appWithTabs();
    await press('{Control>}o{/Control}');
    await press('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.requestsOf('session.cancel')).toEqual([]);
  });

  it('Esc on a focused card neither cancels the turn nor answers the card', async () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a', workspace: '/w' }, [...started(), writeCard('k1', '/w/a.ts')]);
    store.getState().openTab('a');
    const { fake } = renderFrame(<App />, { store });
    const card = screen.getAllByRole('region', { name: 'Permission: write a.ts' })[0]!;
    card.focus();
    await press('{Escape}');
    expect(fake.requestsOf('session.cancel')).toEqual([]);
    expect(fake.requestsOf('card.answer')).toEqual([]);
  });

  it('Ctrl+` toggles the active session’s terminal, even from inside the terminal', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a' });
    store.getState().openTab('a');
    const fake = createFakeApi();
    const terminal = document.createElement('div');
    terminal.className = 'terminal-panel';
    expect(run({ name: 'terminal.toggle' }, store, fake.api, terminal)).toBe(true);
    expect(store.getState().terminalOpen).toEqual({ a: true });
    run({ name: 'terminal.toggle' }, store, fake.api, terminal);
    expect(store.getState().terminalOpen).toEqual({ a: false });
    expect(commandFor({ key: '`', ctrlKey: true, metaKey: false, altKey: false, shiftKey: false }, false)).toEqual({
      name: 'terminal.toggle',
    });
  });

  it('Esc inside the terminal belongs to the shell: it cancels nothing', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a' }, started());
    store.getState().openTab('a');
    const fake = createFakeApi();
    const terminal = document.createElement('div');
    terminal.className = 'terminal-panel';
    const input = terminal.appendChild(document.createElement('textarea'));
    expect(run({ name: 'turn.cancel' }, store, fake.api, input)).toBe(false);
    expect(fake.requestsOf('session.cancel')).toEqual([]);
  });

  it('maps keys through one table, Cmd on a Mac and Ctrl elsewhere', () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean }>) => ({
      key: k,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...mods,
    });
    expect(commandFor(key('3', { ctrlKey: true }), false)).toEqual({ name: 'tab.goto', index: 2 });
    expect(commandFor(key('3', { metaKey: true }), true)).toEqual({ name: 'tab.goto', index: 2 });
    expect(commandFor(key('3', { metaKey: true }), false)).toBeNull();
    expect(commandFor(key('a', {}), false)).toBeNull();
    expect(commandFor(key('s', {}), false)).toBeNull();
  });

  it('Ctrl/Cmd+Shift+M is "What the model sees"; Shift must match, so Ctrl+M and Ctrl+Shift+T are nothing', () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }>) => ({
      key: k,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...mods,
    });
    expect(commandFor(key('M', { ctrlKey: true, shiftKey: true }), false)).toEqual({ name: 'context.show' });
    expect(commandFor(key('M', { metaKey: true, shiftKey: true }), true)).toEqual({ name: 'context.show' });
    expect(commandFor(key('m', { ctrlKey: true }), false)).toBeNull();
    expect(commandFor(key('T', { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    expect(commandFor(key('Escape', { shiftKey: true }), false)).toBeNull();
  });
});
