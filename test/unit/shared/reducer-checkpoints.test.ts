/**
 * The fold of a call's card and checkpoint onto its one row, and of undo, redo and rewind
 * (SPEC §12): what the transcript and the Changes read.
 */
import { describe, expect, it } from 'vitest';
import type { CardBody, Grant } from '../../../shared/cards.js';
import type { ChangedFile } from '../../../shared/checkpoints.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { foldEvents, isRewound } from '../../../shared/reducer.js';

function events(...payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ seq: i + 1, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), ...p }));
}

const body: CardBody = { kind: 'command', tool: 'run', argv: ['make'], cwd: '/ws' };
const grant: Grant = { kind: 'command', argv: ['make'], cwd: '/ws' };
const added = (path: string): ChangedFile => ({ path, change: 'added', bytes: 3 });

const turn: EventPayload[] = [
  { type: 'user_message', messageId: 'm1', text: 'build it' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
  { type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'run', args: { argv: ['make'] } },
  { type: 'card', turnId: 't1', toolCallId: 'c1', cardId: 'k1', body, grant, scope: 'make' },
  { type: 'card_answer', cardId: 'k1', answer: 'allow_once' },
  { type: 'checkpoint', turnId: 't1', toolCallId: 'c1', before: 's0', after: 's1', changed: [added('out.o')] },
  { type: 'tool_result', turnId: 't1', toolCallId: 'c1', tool: 'run', ok: true, output: 'ok' },
  { type: 'checkpoint', turnId: 't1', toolCallId: 'c1#hook1', before: 's1', after: 's2', changed: [added('log')] },
  { type: 'turn_ended', turnId: 't1', reason: 'finished' },
];

describe('one call, one row', () => {
  it('puts the card, its answer and what the call changed on the tool row', () => {
    const state = foldEvents(events(...turn));
    const rows = state.transcript.filter((i) => i.kind === 'tool' || i.kind === 'card');
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    if (row.kind !== 'tool') throw new Error('expected the tool row');
    expect(row.cards?.map((c) => [c.card.cardId, c.outcome])).toEqual([
      ['k1', { state: 'answered', answer: 'allow_once' }],
    ]);
    expect(row.changed).toEqual([added('out.o')]);
    expect(row.result?.ok).toBe(true);
  });

  it("gives a checkpoint no tool row holds (a Stop hook's) a row of its own", () => {
    const state = foldEvents(events(...turn));
    expect(state.transcript.filter((i) => i.kind === 'changes')).toMatchObject([
      { kind: 'changes', toolCallId: 'c1#hook1', changed: [added('log')] },
    ]);
    expect(state.changedPaths).toEqual({ t1: ['out.o', 'log'] });
  });

  it('still opens the card for the pinned answer bar while it waits', () => {
    const state = foldEvents(events(...turn.slice(0, 4)));
    expect(state.openCards.map((c) => c.cardId)).toEqual(['k1']);
    expect(state.status).toBe('waiting');
  });
});

describe('undo, redo and rewind', () => {
  const restored = { before: 'n0', after: 'n1', restored: [added('out.o')], kept: [] };

  it('keeps undos on a stack that a redo takes from, and marks a whole turn undone until redone', () => {
    const undone = foldEvents(events(...turn, { type: 'undo', turnId: 't1', ...restored }));
    expect(undone.undoStack).toEqual([10]);
    expect(undone.undone).toEqual({ t1: 10 });
    const redone = foldEvents(
      events(...turn, { type: 'undo', turnId: 't1', ...restored }, { type: 'redo', undoSeq: 10, ...restored }),
    );
    expect(redone.undoStack).toEqual([]);
    expect(redone.undone).toEqual({});
    expect(redone.transcript.map((i) => i.kind).slice(-2)).toEqual(['undo', 'redo']);
  });

  it('does not mark a turn undone by a one-file revert', () => {
    const state = foldEvents(events(...turn, { type: 'undo', turnId: 't1', paths: ['out.o'], ...restored }));
    expect(state.undone).toEqual({});
    expect(state.undoStack).toEqual([10]);
  });

  it('greys what a rewind of the conversation took out and hands the message back to the composer', () => {
    const state = foldEvents(events(...turn, { type: 'rewind', messageSeq: 1, restore: 'conversation' }));
    expect(state.rewound).toEqual([{ fromSeq: 1, toSeq: 9 }]);
    expect(isRewound(state, 1)).toBe(true);
    expect(isRewound(state, 9)).toBe(true);
    expect(isRewound(state, 10)).toBe(false);
    expect(state.returned).toEqual([{ messageId: 'm1', text: 'build it' }]);
  });

  it('greys nothing for a rewind of the code alone', () => {
    const state = foldEvents(events(...turn, { type: 'rewind', messageSeq: 1, restore: 'code', code: restored }));
    expect(state.rewound).toEqual([]);
    expect(state.returned).toEqual([]);
  });
});
