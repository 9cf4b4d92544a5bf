/**
 * A session in a place of its own, seen from the frame (SPEC §15): its tab names the branch,
 * its header line says which place and from which folder, with Review, which
 * Ctrl+Shift+G opens too; a discarded place says so and offers nothing; the transcript
 * records the place and each apply.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../../shared/events';
import { App } from '../../../../../renderer/src/App';
import { recentWorkspaces } from '../../../../../renderer/src/components/workspace/recent-workspaces';
import { commandFor } from '../../../../../renderer/src/hooks/shortcut-table';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';
import { stubLayout } from '../layout-stub';
import { BRANCH, COPY, reviewOf, WORKTREE } from './place-fixtures';

stubLayout();

function show(payloads: EventPayload[] = [{ type: 'place', place: WORKTREE }], title = 'fix the calculator') {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's', title, workspace: WORKTREE.path }, payloads);
  seedSession(store, { id: 'plain', title: 'plain' });
  store.getState().openTab('plain');
  store.getState().openTab('s');
  const frame = renderFrame(<App />, { store });
  frame.fake.reply('session.review', reviewOf());
  return { ...frame, store };
}

describe('a session in a place of its own, in the frame', () => {
  it('names its branch in its tab, and only its', () => {
    show();
    expect(screen.getByRole('tab', { name: `fix the calculator · ${BRANCH} (idle)` })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'plain (idle)' })).toBeInTheDocument();
  });

  it('says in its header which place it works in and where it came from, with Review', async () => {
    show();
    const line = screen.getByRole('note', { name: 'Place of its own' });
    expect(line).toHaveTextContent(
      `Works in a place of its own: branch ${BRANCH}, a worktree of /home/me/src/calc. Nothing reaches your folder until you apply it.`,
    );
    await userEvent.click(within(line).getByRole('button', { name: 'Review…' }));
    expect(await screen.findByRole('dialog', { name: 'Review the place’s changes' })).toBeInTheDocument();
  });

  it('sits in the sidebar, and among recent folders, with the folder it came from, not its place', () => {
    const store = createAppStore(memoryStorage());
    seedSession(store, { id: 's', title: 'fix', workspace: WORKTREE.path, place: WORKTREE });
    renderFrame(<App />, { store });
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    expect(within(nav).getByRole('group', { name: WORKTREE.origin })).toHaveTextContent('fix');
    expect(within(nav).queryByRole('group', { name: WORKTREE.path })).toBeNull();
    expect(recentWorkspaces(store.getState().sessions)).toEqual([WORKTREE.origin]);
  });

  it('says a copy is a copy, in the tab and the header', () => {
    show([{ type: 'place', place: COPY }]);
    expect(screen.getByRole('tab', { name: 'fix the calculator · in a copy (idle)' })).toBeInTheDocument();
    expect(screen.getByRole('note', { name: 'Place of its own' })).toHaveTextContent(
      'Works in a place of its own: a copy of /home/me/notes.',
    );
  });

  it('opens the review with Ctrl+Shift+G, and not for a session without a place', async () => {
    const { store } = show();
    expect(commandFor({ key: 'G', ctrlKey: true, shiftKey: true, altKey: false, metaKey: false }, false)).toEqual({
      name: 'place.review',
    });
    await userEvent.keyboard('{Control>}{Shift>}G{/Shift}{/Control}');
    expect(store.getState().dialog).toBe('review');
    act(() => {
      store.getState().closeDialog();
      store.getState().activateTab('plain');
    });
    await userEvent.keyboard('{Control>}{Shift>}G{/Shift}{/Control}');
    expect(store.getState().dialog).toBeNull();
  });

  it('once discarded, says so, and neither the header, the tab nor the shortcut offers a review', async () => {
    const { store } = show([
      { type: 'place', place: WORKTREE },
      { type: 'place', place: { ...WORKTREE, state: 'discarded' } },
    ]);
    expect(screen.getByRole('tab', { name: 'fix the calculator (idle)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Review…' })).toBeNull();
    expect(
      screen.getByText(/Its place of its own \(gatehouse\/fix-the-calculator\) was discarded/),
    ).toBeInTheDocument();
    await userEvent.keyboard('{Control>}{Shift>}G{/Shift}{/Control}');
    expect(store.getState().dialog).toBeNull();
    expect(screen.getByText('Its place was discarded: open a new session to go on')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('records the place and each apply in the transcript, in words', () => {
    show([
      { type: 'place', place: WORKTREE },
      {
        type: 'place_apply',
        applyId: 'p1',
        as: 'commit',
        files: [{ path: 'calc.py', change: 'modified', from: 'a'.repeat(64), to: 'b'.repeat(64) }],
        message: 'Fix add',
      },
      {
        type: 'place_applied',
        applyId: 'p1',
        applied: ['calc.py'],
        conflicts: [],
        failed: [],
        commit: 'c0ffee1234',
      },
      { type: 'place_apply', applyId: 'p2', as: 'files', files: [] },
    ]);
    const log = screen.getByRole('log', { name: 'Transcript' });
    expect(log).toHaveTextContent(
      `Made this session’s place of its own: branch ${BRANCH}, a worktree of /home/me/src/calc.`,
    );
    expect(log).toHaveTextContent(
      'Applied from the place as a commit:Applied 1 file.Made commit c0ffee1 on your branch.',
    );
    expect(log).toHaveTextContent('Applying no files from the place to your folder…');
  });
});
