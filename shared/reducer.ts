/**
 * The pure fold of a session's events into its state. The main process uses it to
 * reopen a session from disk; the renderer's store uses the same code on pushed events,
 * so restore, replay and live sync cannot disagree.
 */
import { grantFor, sameGrant, type Answer, type Grant } from './cards.js';
import type { SessionEvent, TurnEndReason } from './events.js';

export type SessionStatus = 'idle' | 'running' | 'waiting' | 'error';

export type CardEvent = Extract<SessionEvent, { type: 'card' }>;
export type QuestionEvent = Extract<SessionEvent, { type: 'question' }>;

export type CardOutcome =
  | { state: 'open' }
  | { state: 'answered'; answer: Answer }
  | { state: 'stale'; answer: Answer; reason: string }
  | { state: 'withdrawn'; reason: string };

export type TranscriptItem =
  | { kind: 'user'; seq: number; messageId: string; text: string }
  | { kind: 'assistant'; seq: number; turnId: string; text: string }
  | {
      kind: 'tool';
      seq: number;
      turnId: string;
      toolCallId: string;
      tool: string;
      args: unknown;
      result?: { ok: boolean; output: string; details?: Record<string, unknown> };
    }
  | { kind: 'card'; seq: number; card: CardEvent; outcome: CardOutcome }
  | {
      kind: 'question';
      seq: number;
      question: QuestionEvent;
      answer?: string;
      withdrawn?: string;
    }
  | { kind: 'hook'; seq: number; argv: string[]; ok: boolean; exitCode: number | null; output: string }
  | { kind: 'result'; seq: number; turnId: string; summary: string }
  | { kind: 'turn_end'; seq: number; turnId: string; reason: TurnEndReason; message?: string }
  | { kind: 'error'; seq: number; message: string };

export interface QueuedMessage {
  messageId: string;
  text: string;
}

export interface SessionState {
  lastSeq: number;
  status: SessionStatus;
  /** The live turn, or null between turns. */
  turnId: string | null;
  transcript: TranscriptItem[];
  /** Cards that went up and have no accepted answer, stale answer or withdrawal yet. */
  openCards: CardEvent[];
  openQuestion: QuestionEvent | null;
  grants: Grant[];
  queue: QueuedMessage[];
  /** Messages handed back to the composer by a cancel, newest batch last. */
  returned: QueuedMessage[];
  lastError: string | null;
}

export function initialState(): SessionState {
  return {
    lastSeq: 0,
    status: 'idle',
    turnId: null,
    transcript: [],
    openCards: [],
    openQuestion: null,
    grants: [],
    queue: [],
    returned: [],
    lastError: null,
  };
}

export function foldEvents(events: Iterable<SessionEvent>, from: SessionState = initialState()): SessionState {
  let state = from;
  for (const event of events) state = reduce(state, event);
  return state;
}

/** Applies one event. Returns a new state object; the input is never mutated. */
export function reduce(prev: SessionState, event: SessionEvent): SessionState {
  const s: SessionState = { ...prev, lastSeq: Math.max(prev.lastSeq, event.seq) };
  switch (event.type) {
    case 'user_message':
      s.transcript = [...s.transcript, { kind: 'user', seq: event.seq, messageId: event.messageId, text: event.text }];
      s.queue = s.queue.filter((q) => q.messageId !== event.messageId);
      return s;
    case 'queued':
      s.queue = [...s.queue, { messageId: event.messageId, text: event.text }];
      return s;
    case 'queue_returned': {
      const ids = new Set(event.messageIds);
      s.returned = [...s.returned, ...s.queue.filter((q) => ids.has(q.messageId))];
      s.queue = s.queue.filter((q) => !ids.has(q.messageId));
      return s;
    }
    case 'turn_started':
      s.turnId = event.turnId;
      s.lastError = null;
      return withStatus(s);
    case 'assistant_text':
      s.transcript = [...s.transcript, { kind: 'assistant', seq: event.seq, turnId: event.turnId, text: event.text }];
      return s;
    case 'tool_call':
      s.transcript = [
        ...s.transcript,
        {
          kind: 'tool',
          seq: event.seq,
          turnId: event.turnId,
          toolCallId: event.toolCallId,
          tool: event.tool,
          args: event.args ?? { blob: event.argsBlob },
        },
      ];
      return s;
    case 'tool_result':
      s.transcript = s.transcript.map((item) =>
        item.kind === 'tool' && item.toolCallId === event.toolCallId
          ? { ...item, result: { ok: event.ok, output: event.output, details: event.details } }
          : item,
      );
      return s;
    case 'card':
      s.openCards = [...s.openCards, event];
      s.transcript = [...s.transcript, { kind: 'card', seq: event.seq, card: event, outcome: { state: 'open' } }];
      return withStatus(s);
    case 'card_answer': {
      const card = s.openCards.find((c) => c.cardId === event.cardId);
      if (!card) return s;
      if (event.answer === 'allow_session' && !s.grants.some((g) => sameGrant(g, card.grant))) {
        s.grants = [...s.grants, grantFor(card.body)];
      }
      return closeCard(s, event.cardId, { state: 'answered', answer: event.answer });
    }
    case 'card_stale':
      return closeCard(s, event.cardId, { state: 'stale', answer: event.answer, reason: event.reason });
    case 'card_withdrawn':
      return closeCard(s, event.cardId, { state: 'withdrawn', reason: event.reason });
    case 'question':
      s.openQuestion = event;
      s.transcript = [...s.transcript, { kind: 'question', seq: event.seq, question: event }];
      return withStatus(s);
    case 'question_answer':
    case 'question_withdrawn': {
      if (s.openQuestion?.questionId === event.questionId) s.openQuestion = null;
      s.transcript = s.transcript.map((item) =>
        item.kind === 'question' && item.question.questionId === event.questionId
          ? event.type === 'question_answer'
            ? { ...item, answer: event.text }
            : { ...item, withdrawn: event.reason }
          : item,
      );
      return withStatus(s);
    }
    case 'hook_run':
      s.transcript = [
        ...s.transcript,
        { kind: 'hook', seq: event.seq, argv: event.argv, ok: event.ok, exitCode: event.exitCode, output: event.output },
      ];
      return s;
    case 'result':
      s.transcript = [...s.transcript, { kind: 'result', seq: event.seq, turnId: event.turnId, summary: event.summary }];
      return s;
    case 'turn_ended':
      s.transcript = [
        ...s.transcript,
        { kind: 'turn_end', seq: event.seq, turnId: event.turnId, reason: event.reason, message: event.message },
      ];
      s.turnId = null;
      s.openCards = [];
      s.openQuestion = null;
      s.lastError = event.reason === 'error' ? (event.message ?? 'the turn ended with an error') : null;
      return withStatus(s);
    case 'error':
      s.transcript = [...s.transcript, { kind: 'error', seq: event.seq, message: event.message }];
      s.lastError = event.message;
      return withStatus(s);
  }
}

function closeCard(s: SessionState, cardId: string, outcome: CardOutcome): SessionState {
  s.openCards = s.openCards.filter((c) => c.cardId !== cardId);
  s.transcript = s.transcript.map((item) =>
    item.kind === 'card' && item.card.cardId === cardId ? { ...item, outcome } : item,
  );
  return withStatus(s);
}

function withStatus(s: SessionState): SessionState {
  if (s.openCards.length > 0 || s.openQuestion) s.status = 'waiting';
  else if (s.turnId) s.status = 'running';
  else if (s.lastError) s.status = 'error';
  else s.status = 'idle';
  return s;
}
