/**
 * The pure fold of a session's events into its state. The main process uses it to
 * reopen a session from disk; the renderer's store uses the same code on pushed events,
 * so restore, replay and live sync cannot disagree.
 *
 * Both entry points are pure: they copy the state they are given once, then apply events
 * to that private copy in place. Copying per event (spreading arrays) made a fold of n
 * events O(n²), which turned reopening a long session into seconds.
 */
import type { SessionAgent } from './agents.js';
import type { CardEdits } from './card-edits.js';
import { answersFor, sameGrant, type Answer, type Grant } from './cards.js';
import type { ChangedFile } from './checkpoints.js';
import type { PlanEntry, SessionEvent, TurnEndReason } from './events.js';
import type { PlaceApplyFile, PlaceApplyOutcome, SessionPlace } from './places.js';

/** 'interrupted': the last turn ended with reason interrupted (e.g. the app stopped); cleared when a turn starts. */
export type SessionStatus = 'idle' | 'running' | 'waiting' | 'error' | 'interrupted';

export type CardEvent = Extract<SessionEvent, { type: 'card' }>;
export type QuestionEvent = Extract<SessionEvent, { type: 'question' }>;

export type CardOutcome =
  | { state: 'open' }
  /** `edited`: allowed with the person's edits; the transcript says "edited by you". */
  | { state: 'answered'; answer: Answer; edited?: CardEdits }
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
      /** The cards this call put up, oldest first (a stale answer re-asks): one row holds the call and its answer. */
      cards?: ToolCard[];
      /** What the call changed in the workspace, from its checkpoint; absent when it took none. */
      changed?: ChangedFile[];
    }
  /** A card no tool row holds: an MCP server's start, a Stop hook's command. */
  | { kind: 'card'; seq: number; card: CardEvent; outcome: CardOutcome }
  /** What a step without a tool row changed (a Stop hook): its checkpoint. */
  | { kind: 'changes'; seq: number; turnId: string; toolCallId: string; changed: ChangedFile[] }
  | { kind: 'undo'; seq: number; event: Extract<SessionEvent, { type: 'undo' }> }
  | { kind: 'redo'; seq: number; event: Extract<SessionEvent, { type: 'redo' }> }
  | { kind: 'rewind'; seq: number; event: Extract<SessionEvent, { type: 'rewind' }> }
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
  | { kind: 'error'; seq: number; message: string }
  /** Where the model's view of the history changed: results masked, history summarised, or a smaller window learned. */
  | { kind: 'context'; seq: number; event: ContextEvent }
  /** An MCP tool the session had allowed changed: its grants are void. */
  | { kind: 'mcp_change'; seq: number; server: string; tool: string; voided: number }
  /** An external agent's plan for a turn: one row per turn, showing its latest list. */
  | { kind: 'plan'; seq: number; turnId: string; entries: PlanEntry[] }
  /** The session's place of its own was made, or discarded (SPEC §15). */
  | { kind: 'place'; seq: number; place: SessionPlace }
  /** An apply to the person's folder: what it set out to write, and, once it ended, how it ended. */
  | {
      kind: 'place_apply';
      seq: number;
      applyId: string;
      as: 'files' | 'commit';
      files: PlaceApplyFile[];
      message?: string;
      /** Absent while it is under way; `interrupted`: the app stopped mid-apply and a restart checked each file. */
      outcome?: PlaceApplyOutcome & { interrupted?: true };
    };

export interface ToolCard {
  card: CardEvent;
  outcome: CardOutcome;
}

export type ContextEvent = Extract<SessionEvent, { type: 'context_masked' | 'compaction' | 'context_window' }>;

/** Token counts and estimated cost, summed over model calls. */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** USD, over the calls that had prices. */
  cost: number;
  /** Calls whose model has no price, so `cost` leaves them out. */
  unpriced: number;
}

export interface SessionUsage {
  session: UsageTotals;
  /** Per turn id, for the turns that called the model. */
  turns: Readonly<Record<string, UsageTotals>>;
  /** How full the context is: the latest request's size (or the estimate after masking or a summary) against its window. */
  context: { tokens: number; window: number } | null;
}

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
  /** The last turn ended with reason interrupted and no turn has started since. */
  interrupted: boolean;
  usage: SessionUsage;
  /** Per turn id, every path the turn's checkpoints changed, in first-change order. */
  changedPaths: Readonly<Record<string, readonly string[]>>;
  /** Seqs of the undo events not yet redone, latest last: a redo takes back the last. */
  undoStack: number[];
  /** Per turn id, the seq of the whole-turn undo not yet redone. */
  undone: Readonly<Record<string, number>>;
  /** Event ranges a rewind took out of the conversation: the transcript greys them, the model skips them. */
  rewound: { fromSeq: number; toSeq: number }[];
  /** The external agent's own session, once its driver started one (absent for the native runner). */
  agentSession?: { agent: SessionAgent; agentSessionId: string };
  /** The place of its own the session works in, as its latest `place` event says (SPEC §15). */
  place?: SessionPlace;
}

export function emptyUsage(): UsageTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0, unpriced: 0 };
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
    interrupted: false,
    usage: { session: emptyUsage(), turns: {}, context: null },
    changedPaths: {},
    undoStack: [],
    undone: {},
    rewound: [],
  };
}

/** Folds events onto `from` (never mutated) and returns the resulting state. O(events). */
export function foldEvents(events: Iterable<SessionEvent>, from: SessionState = initialState()): SessionState {
  const draft = ownCopy(from);
  for (const event of events) apply(draft, event);
  return draft;
}

/** Applies one event. Returns a new state object; the input is never mutated. */
export function reduce(prev: SessionState, event: SessionEvent): SessionState {
  const draft = ownCopy(prev);
  apply(draft, event);
  return draft;
}

/**
 * Applies one event to a state the caller owns alone, in place: O(1) per event however
 * long the session. For the main process, whose session state nothing else holds; the
 * renderer needs `reduce`, whose result is a new object for React.
 */
export function applyOwned(state: SessionState, event: SessionEvent): SessionState {
  apply(state, event);
  return state;
}

/**
 * A copy whose arrays belong to it alone. Items inside are shared with the original, so
 * `apply` replaces an item rather than editing it.
 */
function ownCopy(s: SessionState): SessionState {
  return {
    ...s,
    transcript: s.transcript.slice(),
    openCards: s.openCards.slice(),
    grants: s.grants.slice(),
    queue: s.queue.slice(),
    returned: s.returned.slice(),
    undoStack: s.undoStack.slice(),
    rewound: s.rewound.slice(),
  };
}

/** Applies one event to a state whose arrays it owns (see ownCopy). */
function apply(s: SessionState, event: SessionEvent): void {
  s.lastSeq = Math.max(s.lastSeq, event.seq);
  switch (event.type) {
    case 'user_message':
      s.transcript.push({ kind: 'user', seq: event.seq, messageId: event.messageId, text: event.text });
      s.queue = s.queue.filter((q) => q.messageId !== event.messageId);
      return;
    case 'queued':
      s.queue.push({ messageId: event.messageId, text: event.text });
      return;
    case 'queue_returned': {
      const ids = new Set(event.messageIds);
      s.returned.push(...s.queue.filter((q) => ids.has(q.messageId)));
      s.queue = s.queue.filter((q) => !ids.has(q.messageId));
      return;
    }
    case 'queue_removed':
      s.queue = s.queue.filter((q) => q.messageId !== event.messageId);
      return;
    case 'returned_taken': {
      const ids = new Set(event.messageIds);
      s.returned = s.returned.filter((q) => !ids.has(q.messageId));
      return;
    }
    case 'turn_started':
      s.turnId = event.turnId;
      s.lastError = null;
      s.interrupted = false;
      return setStatus(s);
    case 'assistant_text':
      s.transcript.push({ kind: 'assistant', seq: event.seq, turnId: event.turnId, text: event.text });
      return;
    case 'tool_call':
      s.transcript.push({
        kind: 'tool',
        seq: event.seq,
        turnId: event.turnId,
        toolCallId: event.toolCallId,
        tool: event.tool,
        // A blob reference only when there is one: `null` is a legitimate inline value.
        args: event.argsBlob !== undefined ? { blob: event.argsBlob } : event.args,
      });
      return;
    case 'tool_result':
      return applyToolResult(s, event);
    case 'card':
      s.openCards.push(event);
      addCard(s, event);
      return setStatus(s);
    case 'card_answer':
      return applyCardAnswer(s, event);
    case 'card_stale':
      if (!s.openCards.some((c) => c.cardId === event.cardId)) return revokeAnswer(s, event);
      return closeCard(s, event.cardId, { state: 'stale', answer: event.answer, reason: event.reason });
    case 'card_withdrawn':
      return closeCard(s, event.cardId, { state: 'withdrawn', reason: event.reason });
    case 'question':
      s.openQuestion = event;
      s.transcript.push({ kind: 'question', seq: event.seq, question: event });
      return setStatus(s);
    case 'question_answer':
      return closeQuestion(s, event.questionId, { answer: event.text });
    case 'question_withdrawn':
      return closeQuestion(s, event.questionId, { withdrawn: event.reason });
    case 'hook_run':
      s.transcript.push({
        kind: 'hook',
        seq: event.seq,
        argv: event.argv,
        ok: event.ok,
        exitCode: event.exitCode,
        output: event.output,
      });
      return;
    case 'result':
      s.transcript.push({ kind: 'result', seq: event.seq, turnId: event.turnId, summary: event.summary });
      return;
    case 'turn_ended':
      return applyTurnEnded(s, event);
    case 'error':
      s.transcript.push({ kind: 'error', seq: event.seq, message: event.message });
      s.lastError = event.message;
      return setStatus(s);
    case 'usage':
      return applyUsage(s, event);
    case 'context_masked':
    case 'compaction':
      s.transcript.push({ kind: 'context', seq: event.seq, event });
      s.usage = { ...s.usage, context: s.usage.context && { ...s.usage.context, tokens: event.tokensAfter } };
      return;
    case 'context_window':
      s.transcript.push({ kind: 'context', seq: event.seq, event });
      s.usage = { ...s.usage, context: s.usage.context && { ...s.usage.context, window: event.tokens } };
      return;
    case 'mcp_tool_changed':
      s.grants = s.grants.filter((g) => !(g.kind === 'mcp' && g.tool === event.tool));
      s.transcript.push({
        kind: 'mcp_change',
        seq: event.seq,
        server: event.server,
        tool: event.tool,
        voided: event.voided,
      });
      return;
    case 'checkpoint':
      return applyCheckpoint(s, event);
    case 'undo':
      s.transcript.push({ kind: 'undo', seq: event.seq, event });
      s.undoStack.push(event.seq);
      if (!event.paths) s.undone = { ...s.undone, [event.turnId]: event.seq };
      return;
    case 'redo':
      return applyRedo(s, event);
    case 'rewind':
      return applyRewind(s, event);
    case 'plan':
      return applyPlan(s, event);
    case 'agent_session':
      s.agentSession = { agent: event.agent, agentSessionId: event.agentSessionId };
      return;
    case 'place': {
      // The place logged again with its base snapshot (taken just after it was made) is no new row.
      const same = s.place !== undefined && samePlace(s.place, event.place);
      s.place = event.place;
      if (!same) s.transcript.push({ kind: 'place', seq: event.seq, place: event.place });
      return;
    }
    case 'place_apply': {
      const { applyId, as, files, message } = event;
      s.transcript.push({ kind: 'place_apply', seq: event.seq, applyId, as, files, ...(message ? { message } : {}) });
      return;
    }
    case 'place_applied':
      return applyPlaceApplied(s, event);
  }
}

/** An apply's end goes on its start's row: one row says what was asked and what came of it. */
function applyPlaceApplied(s: SessionState, event: EventOf<'place_applied'>): void {
  const { applied, conflicts, failed, commit, interrupted } = event;
  const outcome = {
    applied,
    conflicts,
    failed,
    ...(commit ? { commit } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  const i = s.transcript.findLastIndex((item) => item.kind === 'place_apply' && item.applyId === event.applyId);
  const item = s.transcript[i];
  if (item?.kind === 'place_apply') {
    s.transcript[i] = { ...item, outcome };
    return;
  }
  // Its start is not in this state (a log cut short): the end still shows, as a row of its own.
  const as = commit ? 'commit' : 'files';
  s.transcript.push({ kind: 'place_apply', seq: event.seq, applyId: event.applyId, as, files: [], outcome });
}

/** A card goes on its call's row when the transcript has one (one call, one row), else on a row of its own. */
function addCard(s: SessionState, card: CardEvent): void {
  const i = s.transcript.findLastIndex(
    (item) => item.kind === 'tool' && item.toolCallId === card.toolCallId && item.turnId === card.turnId,
  );
  const item = s.transcript[i];
  if (item?.kind !== 'tool') {
    s.transcript.push({ kind: 'card', seq: card.seq, card, outcome: { state: 'open' } });
    return;
  }
  s.transcript[i] = { ...item, cards: [...(item.cards ?? []), { card, outcome: { state: 'open' } }] };
}

/** The transcript row holding a card, and a way to give that card a new outcome. */
function cardHolder(
  s: SessionState,
  cardId: string,
): { outcome: CardOutcome; card: CardEvent; set: (o: CardOutcome) => void } | null {
  const i = s.transcript.findLastIndex(
    (item) =>
      (item.kind === 'card' && item.card.cardId === cardId) ||
      (item.kind === 'tool' && item.cards?.some((c) => c.card.cardId === cardId) === true),
  );
  const item = s.transcript[i];
  if (item?.kind === 'card') {
    return { outcome: item.outcome, card: item.card, set: (outcome) => (s.transcript[i] = { ...item, outcome }) };
  }
  if (item?.kind !== 'tool' || !item.cards) return null;
  const cards = item.cards;
  const k = cards.findIndex((c) => c.card.cardId === cardId);
  const held = cards[k]!;
  return {
    outcome: held.outcome,
    card: held.card,
    set: (outcome) => (s.transcript[i] = { ...item, cards: cards.map((c, j) => (j === k ? { ...c, outcome } : c)) }),
  };
}

function applyCheckpoint(s: SessionState, event: EventOf<'checkpoint'>): void {
  if (event.changed.length > 0) {
    const known = s.changedPaths[event.turnId] ?? [];
    const fresh = event.changed.map((c) => c.path).filter((p) => !known.includes(p));
    if (fresh.length > 0) s.changedPaths = { ...s.changedPaths, [event.turnId]: [...known, ...fresh] };
  }
  const i = s.transcript.findLastIndex(
    (item) => item.kind === 'tool' && item.toolCallId === event.toolCallId && item.turnId === event.turnId,
  );
  const item = s.transcript[i];
  if (item?.kind === 'tool') {
    s.transcript[i] = { ...item, changed: [...(item.changed ?? []), ...event.changed] };
    return;
  }
  const { turnId, toolCallId, changed } = event;
  s.transcript.push({ kind: 'changes', seq: event.seq, turnId, toolCallId, changed });
}

function applyRedo(s: SessionState, event: EventOf<'redo'>): void {
  s.transcript.push({ kind: 'redo', seq: event.seq, event });
  s.undoStack = s.undoStack.filter((seq) => seq !== event.undoSeq);
  const turnId = Object.keys(s.undone).find((t) => s.undone[t] === event.undoSeq);
  if (turnId !== undefined) {
    const { [turnId]: _redone, ...rest } = s.undone;
    s.undone = rest;
  }
}

/** A rewind of the conversation greys what came after the message and hands the message back to the composer. */
function applyRewind(s: SessionState, event: EventOf<'rewind'>): void {
  s.transcript.push({ kind: 'rewind', seq: event.seq, event });
  if (event.restore === 'code') return;
  s.rewound.push({ fromSeq: event.messageSeq, toSeq: event.seq - 1 });
  const message = s.transcript.find((item) => item.kind === 'user' && item.seq === event.messageSeq);
  if (message?.kind === 'user') s.returned.push({ messageId: message.messageId, text: message.text });
}

/** Whether the event at seq is in a range a rewind took out of the conversation. */
export function isRewound(state: Pick<SessionState, 'rewound'>, seq: number): boolean {
  return state.rewound.some((r) => seq >= r.fromSeq && seq <= r.toSeq);
}

/** Usage is replaced, never edited, so ownCopy need not copy it for every other event. */
function applyUsage(s: SessionState, event: EventOf<'usage'>): void {
  const session = addUsage(s.usage.session, event);
  const turns = event.turnId
    ? { ...s.usage.turns, [event.turnId]: addUsage(s.usage.turns[event.turnId] ?? emptyUsage(), event) }
    : s.usage.turns;
  // A summary call's size is not the conversation's: only a step says how full the context is.
  const context =
    event.purpose === 'step' && event.inputTokens !== null
      ? { tokens: event.inputTokens, window: event.contextWindow }
      : s.usage.context;
  s.usage = { session, turns, context };
}

function addUsage(t: UsageTotals, u: EventOf<'usage'>): UsageTotals {
  return {
    calls: t.calls + 1,
    inputTokens: t.inputTokens + (u.inputTokens ?? 0),
    outputTokens: t.outputTokens + (u.outputTokens ?? 0),
    cacheReadTokens: t.cacheReadTokens + (u.cacheReadTokens ?? 0),
    cacheWriteTokens: t.cacheWriteTokens + (u.cacheWriteTokens ?? 0),
    cost: t.cost + (u.cost ?? 0),
    unpriced: t.unpriced + (u.cost === null ? 1 : 0),
  };
}

type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

function applyToolResult(s: SessionState, event: EventOf<'tool_result'>): void {
  // Some OpenAI-compatible servers reuse call ids across turns ("call_0"), so the result
  // belongs to the latest call with that id in the same turn, not to every one. Searching
  // from the end also keeps the fold linear: the call is almost always a few items back.
  const i = s.transcript.findLastIndex(
    (item) => item.kind === 'tool' && item.toolCallId === event.toolCallId && item.turnId === event.turnId,
  );
  const item = s.transcript[i];
  if (item?.kind !== 'tool') return;
  s.transcript[i] = { ...item, result: { ok: event.ok, output: event.output, details: event.details } };
}

function applyCardAnswer(s: SessionState, event: EventOf<'card_answer'>): void {
  const card = s.openCards.find((c) => c.cardId === event.cardId);
  if (!card) return;
  // The card names the grant it offers; recording exactly that keeps the log, the card's
  // wording and meta.json in agreement.
  // An edited write is allowed once only: even a log that says otherwise grants nothing.
  // A card asked every time (a place's apply) grants nothing, whatever the log says.
  const grants = event.answer === 'allow_session' && !event.edited && answersFor(card.body.kind).includes(event.answer);
  if (grants && !s.grants.some((g) => sameGrant(g, card.grant))) {
    s.grants.push(card.grant);
  }
  closeCard(s, event.cardId, {
    state: 'answered',
    answer: event.answer,
    ...(event.edited ? { edited: event.edited } : {}),
  });
}

/** Closes an open card. A close for a card that is not open (answered already) is ignored. */
function closeCard(s: SessionState, cardId: string, outcome: CardOutcome): void {
  const open = s.openCards.findIndex((c) => c.cardId === cardId);
  if (open < 0) return;
  s.openCards.splice(open, 1);
  cardHolder(s, cardId)?.set(outcome);
  setStatus(s);
}

/**
 * A card_stale after the card's answer was accepted: the file changed between the gate's
 * re-check and the write, so nothing was written and the answer is dropped after all,
 * and the allow_session grant it recorded goes with it.
 */
function revokeAnswer(s: SessionState, event: EventOf<'card_stale'>): void {
  const holder = cardHolder(s, event.cardId);
  if (holder?.outcome.state !== 'answered') return;
  if (holder.outcome.answer === 'allow_session') s.grants = s.grants.filter((g) => !sameGrant(g, holder.card.grant));
  holder.set({ state: 'stale', answer: event.answer, reason: event.reason });
}

function closeQuestion(s: SessionState, questionId: string, close: { answer: string } | { withdrawn: string }): void {
  if (s.openQuestion?.questionId === questionId) s.openQuestion = null;
  const i = s.transcript.findLastIndex((item) => item.kind === 'question' && item.question.questionId === questionId);
  const item = s.transcript[i];
  if (item?.kind === 'question' && item.answer === undefined && item.withdrawn === undefined) {
    s.transcript[i] = { ...item, ...close };
  }
  setStatus(s);
}

/**
 * A plan replaces the turn's earlier one where it stood: the agent sends the whole list on
 * every change, and one checklist that ticks along reads better than a row per tick.
 */
function applyPlan(s: SessionState, event: Extract<SessionEvent, { type: 'plan' }>): void {
  const at = s.transcript.findIndex((item) => item.kind === 'plan' && item.turnId === event.turnId);
  const item = { kind: 'plan' as const, seq: event.seq, turnId: event.turnId, entries: event.entries };
  if (at === -1) s.transcript.push(item);
  else s.transcript[at] = { ...item, seq: s.transcript[at]!.seq };
}

function applyTurnEnded(s: SessionState, event: EventOf<'turn_ended'>): void {
  // Whatever the turn left open can no longer be answered; the transcript says so too, so
  // the UI never offers buttons on a card that openCards no longer holds.
  const reason = `the turn ended (${event.reason})`;
  for (const card of s.openCards.slice()) closeCard(s, card.cardId, { state: 'withdrawn', reason });
  if (s.openQuestion) closeQuestion(s, s.openQuestion.questionId, { withdrawn: reason });
  s.transcript.push({
    kind: 'turn_end',
    seq: event.seq,
    turnId: event.turnId,
    reason: event.reason,
    message: event.message,
  });
  s.turnId = null;
  s.lastError = event.reason === 'error' ? (event.message ?? 'the turn ended with an error') : null;
  s.interrupted = event.reason === 'interrupted';
  setStatus(s);
}

function setStatus(s: SessionState): void {
  if (s.openCards.length > 0 || s.openQuestion) s.status = 'waiting';
  else if (s.turnId) s.status = 'running';
  else if (s.lastError) s.status = 'error';
  else if (s.interrupted) s.status = 'interrupted';
  else s.status = 'idle';
}

/** The same place in the same state: only its base snapshot may differ. */
function samePlace(a: SessionPlace, b: SessionPlace): boolean {
  const keys = ['kind', 'origin', 'path', 'branch', 'baseCommit', 'state'] as const;
  return keys.every((k) => a[k] === b[k]);
}
