/** An external agent's plan in the fold (ACP `plan`; SPEC §14): one checklist per turn, the latest list. */
import { describe, expect, it } from 'vitest';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { foldEvents } from '../../../shared/reducer.js';

function events(...payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ seq: i + 1, ts: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(), ...p }));
}

const step = (content: string, status: 'pending' | 'in_progress' | 'completed') => ({
  content,
  status,
  priority: 'medium' as const,
});

describe('a plan in the fold', () => {
  it('is a transcript item where the turn first sent it, holding the latest list', () => {
    const state = foldEvents(
      events(
        { type: 'user_message', messageId: 'm1', text: 'fix it' },
        { type: 'turn_started', turnId: 't1', messageId: 'm1' },
        { type: 'plan', turnId: 't1', entries: [step('Read the test', 'in_progress'), step('Fix it', 'pending')] },
        { type: 'assistant_text', turnId: 't1', text: 'Reading.' },
        { type: 'plan', turnId: 't1', entries: [step('Read the test', 'completed'), step('Fix it', 'in_progress')] },
      ),
    );
    const kinds = state.transcript.map((i) => i.kind);
    expect(kinds).toEqual(['user', 'plan', 'assistant']);
    expect(state.transcript[1]).toEqual({
      kind: 'plan',
      seq: 3,
      turnId: 't1',
      entries: [step('Read the test', 'completed'), step('Fix it', 'in_progress')],
    });
  });

  it("keeps another turn's plan as its own row", () => {
    const state = foldEvents(
      events(
        { type: 'plan', turnId: 't1', entries: [step('a', 'completed')] },
        { type: 'plan', turnId: 't2', entries: [step('b', 'pending')] },
      ),
    );
    expect(state.transcript.map((i) => (i.kind === 'plan' ? i.turnId : i.kind))).toEqual(['t1', 't2']);
  });
});
