import { describe, expect, it } from 'vitest';
import type { CardBody, Grant } from '../../../shared/cards.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { foldEvents, initialState, reduce, type SessionState } from '../../../shared/reducer.js';

/** Numbers payloads 1, 2, 3, ... as the log would. */
function events(...payloads: EventPayload[]): SessionEvent[] {
  return payloads.map((p, i) => ({ seq: i + 1, ts: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(), ...p }));
}

const writeBody: CardBody = {
  kind: 'write',
  tool: 'write_file',
  path: '/ws/a.txt',
  inside: true,
  creates: false,
  diff: '@@ -1 +1 @@\n-a\n+b\n',
  diffTruncated: false,
  diffBytes: 18,
  proposalBytes: 2,
  beforeBytes: 2,
  digest: 'd'.repeat(64),
  proposalBlob: 'b'.repeat(64),
};
const writeGrant: Grant = { kind: 'write', path: '/ws/a.txt' };

function card(cardId: string, grant: Grant = writeGrant, body: CardBody = writeBody): EventPayload {
  return { type: 'card', turnId: 't1', toolCallId: `call-${cardId}`, cardId, body, grant, scope: 'words' };
}

const start: EventPayload[] = [
  { type: 'user_message', messageId: 'm1', text: 'hi' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
];

function cardOutcome(state: SessionState, cardId: string) {
  const item = state.transcript.find((i) => i.kind === 'card' && i.card.cardId === cardId);
  return item?.kind === 'card' ? item.outcome : undefined;
}

describe('status', () => {
  it('is idle before anything happens and running once a turn starts', () => {
    expect(initialState().status).toBe('idle');
    expect(foldEvents(events(...start)).status).toBe('running');
  });

  it('is waiting while a card is open and running again once it is answered', () => {
    const upToCard = events(...start, card('c1'));
    expect(foldEvents(upToCard).status).toBe('waiting');
    const answered = events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'allow_once' });
    expect(foldEvents(answered).status).toBe('running');
  });

  it('is waiting while a question is open and running after its answer', () => {
    const q: EventPayload = { type: 'question', turnId: 't1', toolCallId: 'q', questionId: 'q1', question: 'which?' };
    expect(foldEvents(events(...start, q)).status).toBe('waiting');
    const answered = foldEvents(events(...start, q, { type: 'question_answer', questionId: 'q1', text: 'that' }));
    expect(answered.status).toBe('running');
    expect(answered.openQuestion).toBeNull();
  });

  it('is idle after a finished turn and error after a turn that ended in error', () => {
    const finished = events(...start, { type: 'turn_ended', turnId: 't1', reason: 'finished' });
    expect(foldEvents(finished).status).toBe('idle');
    const failed = foldEvents(events(...start, { type: 'turn_ended', turnId: 't1', reason: 'error', message: '503' }));
    expect(failed.status).toBe('error');
    expect(failed.lastError).toBe('503');
  });

  it('leaves error when the next turn starts', () => {
    const s = foldEvents(
      events(
        ...start,
        { type: 'turn_ended', turnId: 't1', reason: 'error', message: 'boom' },
        { type: 'user_message', messageId: 'm2', text: 'again' },
        { type: 'turn_started', turnId: 't2', messageId: 'm2' },
      ),
    );
    expect(s.status).toBe('running');
    expect(s.lastError).toBeNull();
  });

  it('shows an error event between turns as error status', () => {
    expect(foldEvents(events({ type: 'error', message: 'disk full' })).status).toBe('error');
  });
});

describe('grants', () => {
  it('come from an accepted allow_session answer, exactly as the card offered them', () => {
    const s = foldEvents(events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'allow_session' }));
    expect(s.grants).toEqual([writeGrant]);
  });

  it('do not come from allow_once or deny', () => {
    const once = foldEvents(events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'allow_once' }));
    const deny = foldEvents(events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'deny' }));
    expect(once.grants).toEqual([]);
    expect(deny.grants).toEqual([]);
  });

  it('do not come from an answer with edits, even one a log says was for the session', () => {
    const edited = { blob: 'e'.repeat(64), bytes: 3 };
    const s = foldEvents(
      events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'allow_session', edited }),
    );
    expect(s.grants).toEqual([]);
    expect(s.openCards).toEqual([]);
  });

  it('keep the person\'s edits on the answered card, for the transcript\'s "edited by you"', () => {
    const edited = { blob: 'e'.repeat(64), bytes: 3 };
    const s = foldEvents(
      events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'allow_once', edited }),
    );
    const tool = s.transcript.find((i) => i.kind === 'tool');
    const outcome = tool?.kind === 'tool' ? tool.cards?.[0]?.outcome : cardOutcome(s, 'c1');
    expect(outcome).toEqual({ state: 'answered', answer: 'allow_once', edited });
  });

  it('do not come from a stale allow_session answer', () => {
    const s = foldEvents(
      events(...start, card('c1'), { type: 'card_stale', cardId: 'c1', answer: 'allow_session', reason: 'changed' }),
    );
    expect(s.grants).toEqual([]);
    expect(cardOutcome(s, 'c1')).toEqual({ state: 'stale', answer: 'allow_session', reason: 'changed' });
  });

  it('do not come from an answer to a card that is no longer open', () => {
    const s = foldEvents(
      events(
        ...start,
        card('c1'),
        { type: 'card_withdrawn', cardId: 'c1', reason: 'cancelled' },
        { type: 'card_answer', cardId: 'c1', answer: 'allow_session' },
      ),
    );
    expect(s.grants).toEqual([]);
    expect(cardOutcome(s, 'c1')).toEqual({ state: 'withdrawn', reason: 'cancelled' });
  });

  it('are recorded once when the same grant is allowed twice', () => {
    const s = foldEvents(
      events(...start, card('c1'), { type: 'card_answer', cardId: 'c1', answer: 'allow_session' }, card('c2'), {
        type: 'card_answer',
        cardId: 'c2',
        answer: 'allow_session',
      }),
    );
    expect(s.grants).toEqual([writeGrant]);
  });

  it('keep a command grant with its argv and folder', () => {
    const grant: Grant = { kind: 'command', argv: ['npm', 'test'], cwd: '/ws' };
    const body: CardBody = { kind: 'command', tool: 'run', argv: ['npm', 'test'], cwd: '/ws' };
    const s = foldEvents(
      events(...start, card('c1', grant, body), { type: 'card_answer', cardId: 'c1', answer: 'allow_session' }),
    );
    expect(s.grants).toEqual([grant]);
  });
});

describe('queue', () => {
  it('holds queued messages first in, first out, and drops one when it becomes a user message', () => {
    const s = foldEvents(
      events(
        ...start,
        { type: 'queued', messageId: 'q1', text: 'one' },
        { type: 'queued', messageId: 'q2', text: 'two' },
        { type: 'queued', messageId: 'q3', text: 'three' },
      ),
    );
    expect(s.queue.map((q) => q.messageId)).toEqual(['q1', 'q2', 'q3']);
    const next = reduce(s, { seq: 99, ts: 'x', type: 'user_message', messageId: 'q1', text: 'one' });
    expect(next.queue.map((q) => q.messageId)).toEqual(['q2', 'q3']);
  });

  it('moves returned messages out of the queue into returned, in queue order', () => {
    const s = foldEvents(
      events(
        ...start,
        { type: 'queued', messageId: 'q1', text: 'one' },
        { type: 'queued', messageId: 'q2', text: 'two' },
        { type: 'queued', messageId: 'q3', text: 'three' },
        { type: 'queue_returned', messageIds: ['q3', 'q1'] },
      ),
    );
    expect(s.queue.map((q) => q.messageId)).toEqual(['q2']);
    expect(s.returned).toEqual([
      { messageId: 'q1', text: 'one' },
      { messageId: 'q3', text: 'three' },
    ]);
  });
});

describe('open cards', () => {
  it('closes a card on its answer, its stale answer or its withdrawal, and only that card', () => {
    const s = foldEvents(
      events(
        ...start,
        card('a'),
        card('b'),
        card('c'),
        card('d'),
        { type: 'card_answer', cardId: 'a', answer: 'deny' },
        { type: 'card_stale', cardId: 'b', answer: 'allow_once', reason: 'file changed' },
        { type: 'card_withdrawn', cardId: 'c', reason: 'cancelled' },
      ),
    );
    expect(s.openCards.map((c) => c.cardId)).toEqual(['d']);
    expect(cardOutcome(s, 'a')).toEqual({ state: 'answered', answer: 'deny' });
    expect(cardOutcome(s, 'b')).toMatchObject({ state: 'stale' });
    expect(cardOutcome(s, 'c')).toMatchObject({ state: 'withdrawn' });
    expect(cardOutcome(s, 'd')).toEqual({ state: 'open' });
    expect(s.status).toBe('waiting');
  });

  it('does not let a late withdrawal overwrite an answered card', () => {
    const s = foldEvents(
      events(
        ...start,
        card('a'),
        { type: 'card_answer', cardId: 'a', answer: 'allow_once' },
        { type: 'card_withdrawn', cardId: 'a', reason: 'late' },
      ),
    );
    expect(cardOutcome(s, 'a')).toEqual({ state: 'answered', answer: 'allow_once' });
  });

  it('clears open cards and the open question at turn_ended, and marks them withdrawn in the transcript', () => {
    const s = foldEvents(
      events(
        ...start,
        card('a'),
        { type: 'question', turnId: 't1', toolCallId: 'q', questionId: 'q1', question: '?' },
        { type: 'turn_ended', turnId: 't1', reason: 'interrupted' },
      ),
    );
    expect(s.openCards).toEqual([]);
    expect(s.openQuestion).toBeNull();
    expect(s.status).toBe('interrupted');
    expect(cardOutcome(s, 'a')).toMatchObject({ state: 'withdrawn' });
    const question = s.transcript.find((i) => i.kind === 'question');
    expect(question).toMatchObject({ withdrawn: expect.stringContaining('interrupted') });
  });
});

describe('tool calls', () => {
  it('attaches a result to the latest call with that id in the same turn', () => {
    const s = foldEvents(
      events(
        ...start,
        { type: 'tool_call', turnId: 't1', toolCallId: 'call_0', tool: 'read_file', args: { path: 'a' } },
        { type: 'tool_result', turnId: 't1', toolCallId: 'call_0', tool: 'read_file', ok: true, output: 'A' },
        { type: 'turn_ended', turnId: 't1', reason: 'finished' },
        { type: 'turn_started', turnId: 't2', messageId: 'm2' },
        { type: 'tool_call', turnId: 't2', toolCallId: 'call_0', tool: 'read_file', args: { path: 'b' } },
        { type: 'tool_result', turnId: 't2', toolCallId: 'call_0', tool: 'read_file', ok: true, output: 'B' },
      ),
    );
    const tools = s.transcript.filter((i) => i.kind === 'tool');
    expect(tools.map((t) => t.result?.output)).toEqual(['A', 'B']);
  });

  it('shows a blob reference for args kept in a blob, and keeps a null inline value as null', () => {
    const s = foldEvents(
      events(
        { type: 'tool_call', turnId: 't1', toolCallId: 'a', tool: 'write_file', argsBlob: 'f'.repeat(64) },
        { type: 'tool_call', turnId: 't1', toolCallId: 'b', tool: 'finish', args: null },
      ),
    );
    const tools = s.transcript.filter((i) => i.kind === 'tool');
    expect(tools.map((t) => t.args)).toEqual([{ blob: 'f'.repeat(64) }, null]);
  });
});

describe('purity', () => {
  it('never mutates the state it is given', () => {
    const before = foldEvents(events(...start, card('a'), { type: 'queued', messageId: 'q1', text: 'x' }));
    const snapshot = structuredClone(before);
    const after = foldEvents(
      events(
        { type: 'card_answer', cardId: 'a', answer: 'allow_session' },
        { type: 'queue_returned', messageIds: ['q1'] },
        { type: 'assistant_text', turnId: 't1', text: 'done' },
      ).map((e) => ({ ...e, seq: e.seq + 10 })),
      before,
    );
    expect(before).toEqual(snapshot);
    expect(after.grants).toHaveLength(1);
    expect(after.lastSeq).toBe(13);
  });

  it('folds to the same state as reducing one event at a time', () => {
    const all = events(
      ...start,
      { type: 'assistant_text', turnId: 't1', text: 'looking' },
      { type: 'tool_call', turnId: 't1', toolCallId: 'c', tool: 'grep', args: { pattern: 'x' } },
      { type: 'tool_result', turnId: 't1', toolCallId: 'c', tool: 'grep', ok: true, output: '' },
      card('a'),
      { type: 'card_answer', cardId: 'a', answer: 'allow_session' },
      { type: 'result', turnId: 't1', summary: 'ok' },
      { type: 'turn_ended', turnId: 't1', reason: 'finished' },
    );
    expect(foldEvents(all)).toEqual(all.reduce(reduce, initialState()));
  });
});

describe('taking messages out of the queue and back from returned', () => {
  const queued: EventPayload[] = [
    ...start,
    { type: 'queued', messageId: 'q1', text: 'one' },
    { type: 'queued', messageId: 'q2', text: 'two' },
  ];

  it('drops a removed message from the queue and keeps the rest in order', () => {
    const s = foldEvents(events(...queued, { type: 'queue_removed', messageId: 'q1' }));
    expect(s.queue).toEqual([{ messageId: 'q2', text: 'two' }]);
    expect(s.returned).toEqual([]);
  });

  it('empties returned once the composer took the messages back, so it stops growing', () => {
    const cancelled = foldEvents(events(...queued, { type: 'queue_returned', messageIds: ['q1', 'q2'] }));
    expect(cancelled.returned.map((m) => m.messageId)).toEqual(['q1', 'q2']);
    const taken = reduce(cancelled, {
      seq: cancelled.lastSeq + 1,
      ts: '2025-01-01T00:01:00.000Z',
      type: 'returned_taken',
      messageIds: ['q1'],
    });
    expect(taken.returned.map((m) => m.messageId)).toEqual(['q2']);
    expect(cancelled.returned).toHaveLength(2);
  });
});

describe("the 'interrupted' status", () => {
  it('follows a turn that ended interrupted and clears when the next turn starts', () => {
    const stopped = events(...start, { type: 'turn_ended', turnId: 't1', reason: 'interrupted' });
    expect(foldEvents(stopped).status).toBe('interrupted');
    const next = events(
      ...start,
      { type: 'turn_ended', turnId: 't1', reason: 'interrupted' },
      { type: 'user_message', messageId: 'm2', text: 'again' },
      { type: 'turn_started', turnId: 't2', messageId: 'm2' },
    );
    expect(foldEvents(next).status).toBe('running');
  });

  it('is not set by a turn that finished or was cancelled', () => {
    expect(foldEvents(events(...start, { type: 'turn_ended', turnId: 't1', reason: 'cancelled' })).status).toBe('idle');
    expect(foldEvents(events(...start, { type: 'turn_ended', turnId: 't1', reason: 'finished' })).status).toBe('idle');
  });
});

describe('usage and the context', () => {
  const usage = (
    turnId: string,
    input: number,
    read: number,
    cost: number | null,
    purpose: 'step' | 'compaction' = 'step',
  ): EventPayload => ({
    type: 'usage',
    turnId,
    purpose,
    model: 'anthropic:m',
    inputTokens: input,
    outputTokens: 100,
    cacheReadTokens: read,
    cacheWriteTokens: 50,
    requestBytes: input * 4,
    contextWindow: 200_000,
    cost,
  });

  it('sums every call per turn and per session, and counts calls without prices apart', () => {
    const s = foldEvents(
      events(...start, usage('t1', 1_000, 800, 0.01), usage('t1', 2_000, 1_900, 0.02), usage('t2', 500, 0, null)),
    );
    expect(s.usage.turns.t1).toEqual({
      calls: 2,
      inputTokens: 3_000,
      outputTokens: 200,
      cacheReadTokens: 2_700,
      cacheWriteTokens: 100,
      cost: 0.03,
      unpriced: 0,
    });
    expect(s.usage.session).toMatchObject({ calls: 3, inputTokens: 3_500, unpriced: 1 });
    expect(s.usage.session.cost).toBeCloseTo(0.03, 10);
    expect(s.transcript.filter((i) => i.kind === 'context')).toHaveLength(0);
  });

  it('says how full the context is from the latest step, not from a summary call', () => {
    const s = foldEvents(events(...start, usage('t1', 120_000, 0, null), usage('t1', 150_000, 0, null, 'compaction')));
    expect(s.usage.context).toEqual({ tokens: 120_000, window: 200_000 });
  });

  it('shows masking, a summary and a learned window in the transcript, and follows them in the meter', () => {
    const s = foldEvents(
      events(
        ...start,
        usage('t1', 120_000, 0, null),
        { type: 'context_masked', throughSeq: 2, results: 3, tokensBefore: 120_000, tokensAfter: 60_000 },
        { type: 'context_window', model: 'anthropic:m', tokens: 100_000, reason: 'prompt is too long' },
        {
          type: 'compaction',
          fromSeq: 1,
          toSeq: 4,
          summary: 'S',
          trigger: 'overflow',
          tokensBefore: 60_000,
          tokensAfter: 9_000,
        },
      ),
    );
    expect(s.transcript.filter((i) => i.kind === 'context').map((i) => i.kind === 'context' && i.event.type)).toEqual([
      'context_masked',
      'context_window',
      'compaction',
    ]);
    expect(s.usage.context).toEqual({ tokens: 9_000, window: 100_000 });
  });

  it('never shares usage with the state it folded from', () => {
    const before = foldEvents(events(...start));
    const after = reduce(before, { seq: 3, ts: 'x', ...usage('t1', 10, 0, 0.5) } as SessionEvent);
    expect(before.usage.session.calls).toBe(0);
    expect(after.usage.session.calls).toBe(1);
  });
});
