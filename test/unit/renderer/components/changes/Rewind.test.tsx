/**
 * Rewind on a message the person sent (SPEC §12): the code, the conversation or both, each
 * explained and confirmed; off while a turn runs, and the code where undo is off, each
 * saying why; what a rewind took out stays readable, greyed, and the message comes back to
 * the composer.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../../shared/contract';
import type { EventPayload } from '../../../../../shared/events';
import { SessionView } from '../../../../../renderer/src/components/session/SessionView';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';
import { stubLayout } from '../layout-stub';
import { appendEvents, CALC, ended, turnThatChanged } from './checkpoint-fixtures';

stubLayout();

function show(payloads: EventPayload[] = [...turnThatChanged(), ended()], settings?: Partial<SettingsView>) {
  const store = createAppStore(memoryStorage());
  if (settings) store.getState().setSettings({ ...SETTINGS_NONE, ...settings });
  seedSession(store, { id: 's' }, payloads);
  return { ...renderFrame(<SessionView sessionId="s" />, { store }), store };
}

const rewindButton = () => screen.getByRole('button', { name: 'Rewind to here…' });

async function openRewind() {
  await userEvent.click(rewindButton());
  return screen.getByRole('dialog', { name: 'Rewind' });
}

describe('rewinding to a message', () => {
  it('offers three choices, each saying what it does, and rewinds the one confirmed', async () => {
    const { fake } = show();
    const dialog = await openRewind();
    expect(dialog).toHaveTextContent('To “fix the calculator”');
    const choices = within(dialog).getAllByRole('radio');
    expect(choices.map((c) => c.closest('label')?.querySelector('.rewind-choice-name')?.textContent)).toEqual([
      'Code',
      'Conversation',
      'Both',
    ]);
    expect(within(dialog).getByRole('radio', { name: /Both/ })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: /Code/ })).toHaveAccessibleName(
      /Puts the workspace back as it was before this message: 3 files \(calc\.py, out\/report\.txt, old\.txt\)/,
    );
    await userEvent.click(within(dialog).getByRole('radio', { name: /Conversation/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rewind conversation' }));
    expect(fake.requestsOf('session.rewind')).toEqual([{ id: 's', seq: 1, restore: 'conversation' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('can be reached from the keyboard', async () => {
    show();
    rewindButton().focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Rewind' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Both/ })).toHaveFocus();
  });

  it('does nothing while a turn runs, and says why', async () => {
    show(turnThatChanged().slice(0, 3));
    expect(rewindButton()).toHaveAttribute('aria-disabled', 'true');
    expect(rewindButton()).toHaveAccessibleDescription('Rewinding waits until the running turn ends.');
    await userEvent.click(rewindButton());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('turns the code choices off where undo is off, saying why', async () => {
    const checkpoints = {
      available: false as const,
      reason: 'git is not installed',
      fix: 'install git',
      limitBytes: 1,
    };
    show(undefined, { checkpoints });
    const dialog = await openRewind();
    expect(within(dialog).getByRole('radio', { name: /Code/ })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: /Both/ })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: /Conversation/ })).toBeChecked();
    expect(dialog).toHaveTextContent('Undo is off here: git is not installed');
  });

  it('offers no code rewind when nothing changed since the message; Both then rewinds the conversation', async () => {
    const { fake } = show([
      { type: 'user_message', messageId: 'm1', text: 'just talk' },
      { type: 'turn_started', turnId: 't1', messageId: 'm1' },
      ended(),
    ]);
    const dialog = await openRewind();
    expect(within(dialog).getByRole('radio', { name: /Code/ })).toBeDisabled();
    expect(dialog).toHaveTextContent('Nothing in the workspace changed since this message.');
    await userEvent.click(within(dialog).getByRole('radio', { name: /Both/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rewind both' }));
    expect(fake.requestsOf('session.rewind')).toEqual([{ id: 's', seq: 1, restore: 'both' }]);
  });

  it('says why a rewind failed, and stays open', async () => {
    const { fake } = show();
    fake.fail('session.rewind', 'that message was rewound already');
    const dialog = await openRewind();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rewind both' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not rewind: that message was rewound already',
    );
  });

  it('greys what a rewind took out, still readable, and hands the message back to the composer', () => {
    const { store, container } = show();
    appendEvents(store, 's', [{ type: 'rewind', messageSeq: 1, restore: 'conversation' }]);
    const greyed = container.querySelectorAll('.rewound');
    expect(greyed.length).toBeGreaterThan(3);
    expect(screen.getAllByText('Rewound — the model no longer sees this')).toHaveLength(1);
    expect(greyed[0]).toHaveTextContent('fix the calculator');
    expect(screen.queryByRole('button', { name: 'Rewind to here…' })).toBeNull();
    expect(screen.getByText('Rewound the conversation to “fix the calculator”')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('fix the calculator');
  });

  it('says what a code rewind restored', () => {
    const { store } = show();
    appendEvents(store, 's', [
      {
        type: 'rewind',
        messageSeq: 1,
        restore: 'code',
        code: { before: 'x', after: 'y', restored: [CALC], kept: [{ path: 'old.txt', why: 'changed_since' }] },
      },
    ]);
    expect(
      screen.getByText(
        'Rewound the code to before “fix the calculator”: restored 1 file (calc.py); left 1 you changed since: old.txt',
      ),
    ).toBeInTheDocument();
    expect(document.querySelector('.rewound')).toBeNull();
  });
});
