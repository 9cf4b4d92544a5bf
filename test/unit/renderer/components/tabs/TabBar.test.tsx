import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TabBar } from '../../../../../renderer/src/components/tabs/TabBar';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession, started, writeCard } from '../../render-frame';

function threeTabs() {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 'a', title: 'api' });
  seedSession(store, { id: 'b', title: 'web' }, [...started(), writeCard('k', '/w/x')]);
  seedSession(store, { id: 'c', title: 'docs' }, started());
  for (const id of ['a', 'b', 'c']) store.getState().openTab(id);
  return renderFrame(<TabBar />, { store });
}

describe('the tab bar', () => {
  it('shows one tab per open session in a tablist, with its state mark, the active one selected', () => {
    threeTabs();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['api', 'web', 'docs']);
    expect(screen.getByRole('tab', { name: /docs/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: /web/ })).toHaveAccessibleName('web (waiting for you)');
    expect(screen.getByRole('tab', { name: /docs/ })).toHaveAccessibleName('docs (running)');
  });

  it('switches on a click and with the arrow keys', async () => {
    const { store } = threeTabs();
    await userEvent.click(screen.getByRole('tab', { name: /api/ }));
    expect(store.getState().activeId).toBe('a');
    await userEvent.keyboard('{ArrowLeft}');
    expect(store.getState().activeId).toBe('c');
    expect(screen.getByRole('tab', { name: /docs/ })).toHaveFocus();
  });

  it('the tablist holds tabs only: "+" and the close marks are no buttons inside it', () => {
    threeTabs();
    const tablist = screen.getByRole('tablist', { name: 'Open sessions' });
    expect(within(tablist).queryAllByRole('button')).toEqual([]);
    expect(within(tablist).getAllByRole('tab')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'New session' }).closest('[role="tablist"]')).toBeNull();
    for (const tab of screen.getAllByRole('tab')) expect(tab).toHaveAttribute('aria-keyshortcuts', 'Delete');
  });

  it('the × closes a tab without touching its session', async () => {
    const { store, fake } = threeTabs();
    await userEvent.click(screen.getByTitle(/^Close web \(Delete or Ctrl\+W\)/));
    expect(screen.getAllByRole('tab')).toHaveLength(2);
    expect(store.getState().sessions.b).toBeDefined();
    expect(fake.calls).toEqual([]);
  });

  it('Delete closes the focused tab and focus moves to the tab shown next, then to "+"', async () => {
    const { store } = threeTabs();
    screen.getByRole('tab', { name: /docs/ }).focus();
    await userEvent.keyboard('{Delete}');
    expect(store.getState().openIds).toEqual(['a', 'b']);
    expect(store.getState().sessions.c).toBeDefined();
    const next = screen.getByRole('tab', { selected: true });
    expect(next).toHaveFocus();
    await userEvent.keyboard('{Delete}');
    await userEvent.keyboard('{Delete}');
    expect(screen.queryAllByRole('tab')).toEqual([]);
    expect(screen.getByRole('button', { name: 'New session' })).toHaveFocus();
  });

  it('a middle click closes a tab, as in browsers', async () => {
    const { store } = threeTabs();
    await userEvent.pointer({ keys: '[MouseMiddle]', target: screen.getByRole('tab', { name: /api/ }) });
    expect(store.getState().openIds).toEqual(['b', 'c']);
  });

  it('"+" opens the folder dialog for a new session', async () => {
    const { store } = threeTabs();
    await userEvent.click(screen.getByRole('button', { name: 'New session' }));
    expect(store.getState().dialog).toBe('open-folder');
  });
});

describe('the tab of a session an external agent drives', () => {
  it("shows the agent's name and version beside the title, and in the tab's name", () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, {
      id: 'a',
      title: 'api',
      agent: { id: 'claude-code', label: 'Claude Code', version: '0.10.0' },
    });
    seedSession(store, { id: 'b', title: 'web' });
    for (const id of ['a', 'b']) store.getState().openTab(id);
    renderFrame(<TabBar />, { store });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['api · Claude Code 0.10.0', 'web']);
    expect(screen.getByRole('tab', { name: /api/ })).toHaveAccessibleName('api · Claude Code 0.10.0 (idle)');
  });
});
