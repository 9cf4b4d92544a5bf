/**
 * A turn's Changes (SPEC §12, UI.md card rule 10): opened from the turn's end, every file
 * with its diff; Revert, Undo turn and Redo; a file changed since is named and left alone
 * unless ticked; and when undo cannot run, it says why next to the buttons.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../../shared/events';
import { SessionView } from '../../../../../renderer/src/components/session/SessionView';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';
import { stubLayout } from '../layout-stub';
import { appendEvents, CALC, checkpoint, ended, OLD, OUT, turnThatChanged, turnView } from './checkpoint-fixtures';

stubLayout();

function show(payloads: EventPayload[] = [...turnThatChanged(), ended()]) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's' }, payloads);
  const frame = renderFrame(<SessionView sessionId="s" />, { store });
  frame.fake.reply('session.changes', turnView());
  return { ...frame, store };
}

async function openChanges(name: RegExp | string = 'Changes · 3 files') {
  await userEvent.click(screen.getByRole('button', { name }));
  return screen.findByRole('dialog', { name: 'Changes' });
}

const undoEvent = (overrides: Partial<Extract<EventPayload, { type: 'undo' }>> = {}): EventPayload => ({
  type: 'undo',
  turnId: 't1',
  before: 'n1',
  after: 'n2',
  restored: [CALC, OUT, OLD],
  kept: [],
  ...overrides,
});

describe('the Changes of a turn', () => {
  it('opens from the end of a turn that changed files and lists every file with its diff', async () => {
    const { fake } = show();
    const dialog = await openChanges();
    expect(fake.requestsOf('session.changes')).toEqual([{ id: 's', turnId: 't1' }]);
    expect(await within(dialog).findByText('This turn changed 3 files.')).toBeInTheDocument();
    const list = within(dialog).getByRole('list', { name: 'Files the turn changed' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText('return a + b')).toBeInTheDocument();
    expect(within(list).getByText('total: 3')).toBeInTheDocument();
  });

  it('is not offered for a turn whose calls changed nothing', () => {
    show([
      ...turnThatChanged().slice(0, 5),
      checkpoint('t1', 'c1', []),
      { type: 'tool_result', turnId: 't1', toolCallId: 'c1', tool: 'search_replace', ok: true, output: '' },
      ended(),
    ]);
    expect(screen.getByText(/Turn finished/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Changes/ })).toBeNull();
  });

  it('closes on Escape and gives the focus back to the button that opened it', async () => {
    show();
    const button = screen.getByRole('button', { name: 'Changes · 3 files' });
    await userEvent.click(button);
    await screen.findByText('This turn changed 3 files.');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('reverts one file, and says what it restored', async () => {
    const { fake } = show();
    fake.reply('session.undo', { seq: 20, restored: [CALC], kept: [] });
    const dialog = await openChanges();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Revert calc.py' }));
    expect(fake.requestsOf('session.undo')).toEqual([{ id: 's', turnId: 't1', paths: ['calc.py'] }]);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Reverted 1 file: restored 1 file (calc.py).');
  });

  it('leaves a file changed since the turn alone unless it is ticked', async () => {
    const { fake } = show();
    fake.reply(
      'session.changes',
      turnView({ files: turnView().files.map((f, i) => (i === 0 ? { ...f, changedSince: 'changed_since' } : f)) }),
    );
    fake.reply('session.undo', { seq: 20, restored: [OUT, OLD], kept: [{ path: 'calc.py', why: 'changed_since' }] });
    const dialog = await openChanges();
    const warning = await within(dialog).findByRole('note');
    expect(warning).toHaveTextContent('Changed since the turn — left alone unless ticked.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Undo turn' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Undid the turn: restored 2 files (out/report.txt, old.txt); left 1 you changed since: calc.py.',
    );
    await userEvent.click(within(warning).getByRole('checkbox', { name: 'Overwrite it anyway' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Undo turn' }));
    expect(fake.requestsOf('session.undo')).toEqual([
      { id: 's', turnId: 't1' },
      { id: 's', turnId: 't1', overwrite: ['calc.py'] },
    ]);
  });

  it('warns of no file changed since once the turn is undone: the undo is not the person’s change', async () => {
    const { fake } = show([...turnThatChanged(), ended(), undoEvent()]);
    fake.reply(
      'session.changes',
      turnView({ files: turnView().files.map((f) => ({ ...f, changedSince: 'changed_by_later_turn' as const })) }),
    );
    const dialog = await openChanges('Changes · 3 files · undone');
    await within(dialog).findByText('This turn changed 3 files; it is undone.');
    expect(within(dialog).queryByRole('note')).toBeNull();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
  });

  it('says an undone turn is undone, offers Redo, and asks for the changes again when the undo lands', async () => {
    const { fake, store } = show();
    const dialog = await openChanges();
    await within(dialog).findByText('This turn changed 3 files.');
    appendEvents(store, 's', [undoEvent()]);
    expect(await within(dialog).findByText('This turn changed 3 files; it is undone.')).toBeInTheDocument();
    expect(within(dialog).getByText('Undone.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Undo turn' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Revert calc.py' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Redo' }));
    expect(fake.requestsOf('session.redo')).toEqual([{ id: 's' }]);
    expect(fake.requestsOf('session.changes')).toHaveLength(2);
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Changes · 3 files · undone' })).toBeInTheDocument();
  });

  it('keeps the keyboard in the view when the button pressed goes away: Escape still closes it', async () => {
    const { store } = show();
    const dialog = await openChanges();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Undo turn' }));
    appendEvents(store, 's', [undoEvent()]);
    expect(within(dialog).queryByRole('button', { name: 'Undo turn' })).toBeNull();
    expect(within(dialog).getByText(/it is undone/)).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says whose undo Redo brings back when the latest is not this turn’s', async () => {
    show([...turnThatChanged(), ended(), undoEvent({ paths: ['calc.py'], restored: [CALC] })]);
    const dialog = await openChanges();
    expect(await within(dialog).findByRole('button', { name: 'Redo the latest undo' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Redo brings back the latest undo, not this turn’s: Reverted 1 file of a turn: restored 1 file (calc.py).',
    );
  });

  it('turns every Undo and Revert off when undo cannot run, saying why next to them', async () => {
    const { fake } = show();
    fake.reply('session.changes', turnView({ undo: { ok: false, why: 'git is not installed on this machine' } }));
    const dialog = await openChanges();
    expect(await within(dialog).findByText('Undo is off: git is not installed on this machine')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Undo turn' })).toBeDisabled();
    for (const revert of within(dialog).getAllByRole('button', { name: /^Revert/ })) expect(revert).toBeDisabled();
  });

  it('waits while a turn runs, and says so', async () => {
    const { store } = show();
    appendEvents(store, 's', [
      { type: 'user_message', messageId: 'm2', text: 'next' },
      { type: 'turn_started', turnId: 't2', messageId: 'm2' },
    ]);
    const dialog = await openChanges();
    expect(await within(dialog).findByText('The agent is working: undo waits until the turn ends.')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Undo turn' })).toBeDisabled();
  });

  it('says in words why an undo failed', async () => {
    const { fake } = show();
    fake.fail('session.undo', 'this change cannot be taken back: its snapshot was dropped');
    const dialog = await openChanges();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Undo turn' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'Could not undo the turn: this change cannot be taken back: its snapshot was dropped',
      ),
    );
  });
});

describe('where undo is off', () => {
  it('says so, why and what to install, at the end of each turn instead of offering Changes', () => {
    const store = createAppStore(memoryStorage());
    store.getState().setSettings({
      ...SETTINGS_NONE,
      checkpoints: {
        available: false,
        reason: 'git is not installed',
        fix: 'install git and restart Gatehouse',
        limitBytes: 2 ** 31,
      },
    });
    seedSession(store, { id: 's' }, [...turnThatChanged(), ended()]);
    renderFrame(<SessionView sessionId="s" />, { store });
    expect(
      screen.getByText('Undo is off: git is not installed. Install git and restart Gatehouse.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Changes/ })).toBeNull();
  });
});
