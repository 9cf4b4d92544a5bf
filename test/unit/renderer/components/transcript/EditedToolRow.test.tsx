/**
 * A write allowed with the person's edits, in the transcript (SPEC §13): its row says
 * "Allowed once, edited by you", and opens the diff of the model's proposal against what was
 * written (card.edits) in the windowed diff view.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../../shared/events';
import { SessionView } from '../../../../../renderer/src/components/session/SessionView';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';
import { stubLayout } from '../layout-stub';
import { cardFor, checkpoint, ended, WRITE_CALC, CALC } from '../changes/checkpoint-fixtures';

stubLayout();

const EDITS_DIFF =
  '--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return b + a # yours\n';

function editedTurn(): EventPayload[] {
  return [
    { type: 'user_message', messageId: 'm1', text: 'fix the calculator' },
    { type: 'turn_started', turnId: 't1', messageId: 'm1' },
    { type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'search_replace', args: { path: 'calc.py' } },
    cardFor('c1', 'k1', WRITE_CALC),
    { type: 'card_answer', cardId: 'k1', answer: 'allow_once', edited: { blob: 'e'.repeat(64), bytes: 40 } },
    checkpoint('t1', 'c1', [CALC]),
    {
      type: 'tool_result',
      turnId: 't1',
      toolCallId: 'c1',
      tool: 'search_replace',
      ok: true,
      output: 'wrote calc.py with the person’s changes',
    },
    ended(),
  ];
}

function show(payloads: EventPayload[]) {
  const store = createAppStore(memoryStorage());
  seedSession(store, { id: 's', workspace: '/home/me/src/project' }, payloads);
  return renderFrame(<SessionView sessionId="s" />, { store });
}

const row = () => screen.getByRole('log', { name: 'Transcript' }).querySelector<HTMLElement>('.tool-row')!;

describe('a write allowed with the person’s edits, in the transcript', () => {
  it('says "Allowed once, edited by you" on its line and on its card', async () => {
    show(editedTurn());
    const line = within(row()).getAllByRole('button')[0]!;
    expect(line).toHaveTextContent(/search_replace\s*calc\.py\s*Allowed once, edited by you ·\s*✓ done/);
    await userEvent.click(line);
    expect(row().querySelector('.tool-row-details')).toHaveTextContent('Card: Allowed once, edited by you');
  });

  it('opens the diff of the proposal against what was written, asked of card.edits once', async () => {
    const { fake } = show(editedTurn());
    fake.reply('card.edits', {
      path: '/home/me/src/project/calc.py',
      diff: EDITS_DIFF,
      diffTruncated: false,
      diffBytes: EDITS_DIFF.length,
      proposalBytes: 38,
      editedBytes: 40,
    });
    const toggle = within(row()).getByRole('button', { name: /Your edits: the model's proposal → what was written/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(await within(row()).findByText('return b + a # yours')).toBeInTheDocument();
    expect(row()).toHaveTextContent('The model proposed 38 bytes; you wrote 40 bytes.');
    const prefixes = [...row().querySelectorAll('.diff-view-prefix')].map((p) => p.textContent);
    expect(prefixes).toEqual(expect.arrayContaining(['+', '-']));
    await userEvent.click(toggle);
    await userEvent.click(toggle);
    expect(fake.requestsOf('card.edits')).toEqual([{ id: 's', cardId: 'k1' }]);
  });

  it('says plainly when the edits cannot be loaded', async () => {
    const { fake } = show(editedTurn());
    fake.fail('card.edits', 'card k1 was not allowed with edits');
    await userEvent.click(within(row()).getByRole('button', { name: /Your edits/ }));
    expect(
      await screen.findByText('Could not load your edits: card k1 was not allowed with edits'),
    ).toBeInTheDocument();
  });

  it('offers no edits diff for a write allowed as proposed', () => {
    const payloads = editedTurn();
    payloads[4] = { type: 'card_answer', cardId: 'k1', answer: 'allow_once' };
    show(payloads);
    expect(within(row()).getAllByRole('button')[0]).toHaveTextContent(/Allowed once ·/);
    expect(within(row()).queryByRole('button', { name: /Your edits/ })).toBeNull();
  });
});
