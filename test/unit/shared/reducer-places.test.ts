/** A session's place of its own in the fold (SPEC §15): the place, and each apply with how it ended. */
import { describe, expect, it } from 'vitest';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { SessionPlace } from '../../../shared/places.js';
import { foldEvents, initialState, reduce } from '../../../shared/reducer.js';

function events(...payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ seq: i + 1, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), ...p }));
}

const PLACE: SessionPlace = {
  kind: 'worktree',
  origin: '/home/me/src/app',
  path: '/data/places/s1/app',
  branch: 'gatehouse/fix-tests',
  baseCommit: 'a'.repeat(40),
  state: 'active',
};
const FILE = { path: 'src/a.ts', change: 'modified' as const, from: 'f'.repeat(64), to: 't'.repeat(64) };

describe('a place in the fold', () => {
  it('is the session’s place, and a row where it was made', () => {
    const state = foldEvents(events({ type: 'place', place: PLACE }));
    expect(state.place).toEqual(PLACE);
    expect(state.transcript).toEqual([{ kind: 'place', seq: 1, place: PLACE }]);
  });

  it('is the latest place event’s: a discarded place reads as discarded, with a row of its own', () => {
    const state = foldEvents(
      events({ type: 'place', place: PLACE }, { type: 'place', place: { ...PLACE, state: 'discarded' } }),
    );
    expect(state.place?.state).toBe('discarded');
    expect(state.transcript.map((i) => i.kind)).toEqual(['place', 'place']);
  });

  it('is one row when the place is logged again with its base snapshot', () => {
    const based = { ...PLACE, baseSnapshot: 'b'.repeat(40) };
    const state = foldEvents(events({ type: 'place', place: PLACE }, { type: 'place', place: based }));
    expect(state.place).toEqual(based);
    expect(state.transcript).toEqual([{ kind: 'place', seq: 1, place: PLACE }]);
  });

  it('leaves a session without a place event with no place', () => {
    expect(foldEvents(events({ type: 'user_message', messageId: 'm1', text: 'hi' })).place).toBeUndefined();
  });
});

describe('an apply in the fold', () => {
  it('is one row: what it set out to write, then how it ended', () => {
    const started = foldEvents(
      events(
        { type: 'place', place: PLACE },
        { type: 'place_apply', applyId: 'p1', as: 'commit', files: [FILE], message: 'Fix the tests' },
      ),
    );
    expect(started.transcript[1]).toEqual({
      kind: 'place_apply',
      seq: 2,
      applyId: 'p1',
      as: 'commit',
      files: [FILE],
      message: 'Fix the tests',
    });
    const ended = foldEvents(
      events({
        type: 'place_applied',
        applyId: 'p1',
        applied: ['src/a.ts'],
        conflicts: [],
        failed: [],
        commit: 'c'.repeat(40),
      }).map((e) => ({ ...e, seq: 3 })),
      started,
    );
    expect(ended.transcript).toHaveLength(2);
    expect(ended.transcript[1]).toMatchObject({
      kind: 'place_apply',
      seq: 2,
      outcome: { applied: ['src/a.ts'], conflicts: [], failed: [], commit: 'c'.repeat(40) },
    });
  });

  it('says an apply the app stopped in was checked after the restart', () => {
    const state = foldEvents(
      events(
        { type: 'place_apply', applyId: 'p1', as: 'files', files: [FILE] },
        {
          type: 'place_applied',
          applyId: 'p1',
          interrupted: true,
          applied: [],
          conflicts: [],
          failed: [{ path: 'src/a.ts', reason: 'Gatehouse stopped before this file was written' }],
        },
      ),
    );
    expect(state.transcript).toHaveLength(1);
    expect(state.transcript[0]).toMatchObject({ kind: 'place_apply', outcome: { interrupted: true } });
  });

  it('puts each end on its own apply, not on the latest', () => {
    const state = foldEvents(
      events(
        { type: 'place_apply', applyId: 'p1', as: 'files', files: [FILE] },
        { type: 'place_apply', applyId: 'p2', as: 'files', files: [FILE] },
        { type: 'place_applied', applyId: 'p1', applied: ['src/a.ts'], conflicts: [], failed: [] },
      ),
    );
    expect(state.transcript[0]).toMatchObject({ applyId: 'p1', outcome: { applied: ['src/a.ts'] } });
    expect(state.transcript[1]).not.toHaveProperty('outcome');
  });

  it('still shows an end whose start the log does not hold', () => {
    const state = foldEvents(
      events({ type: 'place_applied', applyId: 'p9', applied: [], conflicts: ['b.ts'], failed: [] }),
    );
    expect(state.transcript).toEqual([
      {
        kind: 'place_apply',
        seq: 1,
        applyId: 'p9',
        as: 'files',
        files: [],
        outcome: { applied: [], conflicts: ['b.ts'], failed: [] },
      },
    ]);
  });

  it('never changes the state it was given', () => {
    const before = foldEvents(events({ type: 'place_apply', applyId: 'p1', as: 'files', files: [FILE] }));
    const frozen = structuredClone(before);
    reduce(before, { type: 'place_applied', applyId: 'p1', applied: [], conflicts: [], failed: [], seq: 2, ts: '' });
    reduce(initialState(), { type: 'place', place: PLACE, seq: 1, ts: '' });
    expect(before).toEqual(frozen);
  });
});

describe("a model's proposal to apply, in the fold", () => {
  it('grants nothing, even where the log says allow_session', () => {
    const body = {
      kind: 'place_apply' as const,
      as: 'files' as const,
      origin: PLACE.origin,
      place: PLACE.path,
      files: [{ path: 'src/a.ts', change: 'modified' as const, status: 'ready' as const }],
      fingerprint: 'f',
    };
    const grant = { kind: 'place_apply' as const, origin: PLACE.origin };
    const state = foldEvents(
      events(
        { type: 'turn_started', turnId: 't1', messageId: 'm1' },
        { type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'propose_apply', args: { as: 'files' } },
        { type: 'card', turnId: 't1', toolCallId: 'c1', cardId: 'k1', body, grant, scope: 'asked every time' },
        { type: 'card_answer', cardId: 'k1', answer: 'allow_session' },
      ),
    );
    expect(state.openCards).toEqual([]);
    expect(state.grants).toEqual([]);
  });
});
