import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WaitingList } from '../../../../../renderer/src/components/sidebar/WaitingList';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { summaryOf } from '../../fake-api';
import { memoryStorage, question, renderFrame, seedSession, started, writeCard } from '../../render-frame';

function twoSessionsWaiting() {
  const store = createAppStore(memoryStorage());
  // "web" asked first (minute 0-2), "api" later (minute 10-12), then "web" asked again.
  seedSession(store, { id: 'web', title: 'web' }, [...started(), question('q1', 'Which port?')], 0);
  seedSession(
    store,
    { id: 'api', title: 'api', workspace: '/home/me/src/api' },
    [...started(), writeCard('k1', '/home/me/src/api/src/a.ts')],
    10,
  );
  store
    .getState()
    .upsertSummary(summaryOf({ id: 'old', title: 'old', waiting: 2, updatedAt: '2026-12-03T05:00:00.000Z' }));
  return store;
}

describe('the waiting list', () => {
  it('gathers open cards and questions of every session, oldest first, and counts unloaded ones from their summary', () => {
    renderFrame(<WaitingList />, { store: twoSessionsWaiting() });
    const list = screen.getByRole('list', { name: 'Waiting for you' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/^webasks: Which port\?/),
      expect.stringMatching(/^apiwrite src\/a\.ts/),
      expect.stringMatching(/^old2 items waiting/),
    ]);
    expect(screen.getByRole('heading', { name: 'Waiting for you (4)' })).toBeInTheDocument();
  });

  it('says nothing is waiting when nothing is', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 'a' }, started());
    renderFrame(<WaitingList />, { store });
    expect(screen.getByText('Nothing is waiting.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Waiting for you' })).toBeNull();
  });

  it('one click opens that session’s tab and asks for focus on that card', async () => {
    const { store } = renderFrame(<WaitingList />, { store: twoSessionsWaiting() });
    await userEvent.click(screen.getByRole('button', { name: /api/ }));
    expect(store.getState().openIds).toEqual(['api']);
    expect(store.getState().activeId).toBe('api');
    expect(store.getState().focusRequest).toMatchObject({ sessionId: 'api', targetId: 'k1' });
  });

  it('drops a card from the list once it is answered', () => {
    const store = twoSessionsWaiting();
    renderFrame(<WaitingList />, { store });
    expect(screen.getByText(/write src\/a\.ts/)).toBeInTheDocument();
    const api = store.getState().sessions.api!;
    act(() => store.getState().replaceEntries({ api: { ...api, state: { ...api.state!, openCards: [] } } }));
    expect(screen.queryByText(/write src\/a\.ts/)).toBeNull();
  });
});
