/**
 * One live session: its log and state, its gate, and at most one running turn. A
 * message sent while a turn runs waits in the FIFO queue; while a card or question is
 * open a new message is refused; cancel aborts the turn and hands the queue back.
 */
import type { ModelConfig, SessionSummary } from '../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { applyOwned, foldEvents, type QueuedMessage, type SessionState } from '../../../shared/reducer.js';
import { pendingResults } from '../runner/pending-calls.js';
import type { Questions } from '../runner/questions.js';
import { Runner } from '../runner/runner.js';
import { removeInterruptedTemps } from './interrupted-writes.js';
import type { SessionCards } from './session-cards.js';
import type { SessionContextCalls } from './session-context-calls.js';
import type { SessionDeps, SessionInfo } from './session-deps.js';
import type { DriverFactory, DriverResumePoint, SessionDriver } from './session-driver.js';
import { SessionError } from './session-error.js';
import type { SessionMcpCalls } from './session-mcp-calls.js';
import { driverSeam, sessionParts, type PartsOwner, type SessionParts } from './session-parts.js';
import type { SessionUndo } from './session-undo.js';
import { unstartedMessage } from './unstarted-message.js';
import type { SessionPlace } from '../../../shared/places.js';
import { SessionPlaceCalls } from '../places/session-place.js';
import { PlaceError } from '../places/place-error.js';
import type { Places } from '../places/places.js';
import { proposeApplyTool } from '../places/propose-apply.js';
import type { ToolDef } from '../tools/tool-def.js';

const NO_TOOLS: readonly ToolDef[] = Object.freeze([]);

export type { SessionDeps, SessionFiles, SessionInfo } from './session-deps.js';

interface LiveTurn {
  turnId: string;
  /** The message that started it (absent for a turn resumed after a restart). */
  messageId?: string;
  controller: AbortController;
  done: Promise<void>;
}

export class Session {
  private state: SessionState;
  private readonly events: SessionEvent[];
  /** Stops this session following its log's appends, when it is disposed. */
  private readonly stopFollowingLog: () => void;
  /** What the session has: tools, gate, servers, context, checkpoints, questions. */
  private readonly parts: SessionParts;
  /** The `card.*` calls: write cards' texts, edits and answers. */
  readonly cards: SessionCards;
  /** The `question.*` calls: answers to the agent's questions. */
  readonly questions: Pick<Questions, 'answer'>;
  /** The `mcp.*` calls: the session's servers. */
  readonly mcp: SessionMcpCalls;
  /** The context calls: what the model sees, and Compact now. */
  readonly context: SessionContextCalls;
  /** The checkpoint calls: changes, undo, redo and rewind (SPEC §12). */
  readonly checkpoints: SessionUndo;
  /** The place calls: its review, an apply, a discard (SPEC §15). */
  readonly place: SessionPlaceCalls;
  /** propose_apply over this session's place: offered to the model while the place is active. */
  private readonly proposeTools: readonly ToolDef[];
  /** The session's place as the log last said it (summary.place). */
  private placeNow: SessionPlace | undefined;
  /** Summary calls running now, so a window that connects mid-summary can say so. */
  private summarising = 0;
  /** What drives the turns; none without a workspace, where no turn can run. */
  private readonly driver: SessionDriver | null;
  private live: LiveTurn | null = null;
  private info: SessionInfo;
  private closing = false;
  /** Queued messages being taken out: the next turn must not start one while its removal is written. */
  private readonly unqueuing = new Set<string>();
  /** Returned messages being handed to a composer, so a second window does not get them too. */
  private readonly taking = new Set<string>();

  constructor(private readonly deps: SessionDeps) {
    this.info = { ...deps.info };
    this.events = [...deps.events];
    this.state = foldEvents(this.events);
    // Before the parts: the tools they list include the place's, read from these calls.
    this.place = new SessionPlaceCalls({
      id: deps.info.id,
      places: deps.places ?? noPlaces(),
      events: this.events,
      append: (p) => this.append(p),
      newId: deps.newId,
      whenIdle: (what) => this.refuseWhileLive(what),
    });
    this.proposeTools = [proposeApplyTool(this.place) as unknown as ToolDef];
    const owner: PartsOwner = {
      id: deps.info.id,
      events: this.events,
      state: () => this.state,
      append: (p) => this.append(p),
      model: () => this.info.model,
      liveTurn: () => (this.live ? { turnId: this.live.turnId, signal: this.live.controller.signal } : null),
      whenIdle: (what) => this.refuseWhileLive(what),
      whyNoWorkspace: () => this.whyNoWorkspace(),
      // Offered while the place is active: a session in the person's folder, or a discarded place, has none.
      placeTools: () => (this.place.current()?.state === 'active' ? this.proposeTools : NO_TOOLS),
      onCompacting: (compacting) => {
        this.summarising += compacting ? 1 : -1;
        deps.emit({ name: 'session.compacting', payload: { id: this.id, compacting } });
      },
    };
    this.parts = sessionParts(deps, owner);
    ({ cards: this.cards, questions: this.questions, mcp: this.mcp, context: this.context } = this.parts);
    this.checkpoints = this.parts.checkpoints;
    this.placeNow = this.place.current() ?? undefined;
    this.stopFollowingLog = deps.files.onAppend((event) => this.applyEvent(event));
    const seam = deps.workspace ? driverSeam(this.parts, deps, owner, deps.workspace) : null;
    this.driver = seam ? (deps.driver ?? this.nativeRunner)(seam) : null;
  }

  /** The native runner: the seed's tool loop against the session's model. */
  private readonly nativeRunner: DriverFactory = (seam) =>
    new Runner({ ...seam, model: () => this.deps.chat(this.info.model) });

  get id(): string {
    return this.info.id;
  }

  /** The words for a session without its workspace: the folder is missing, or refused as a workspace. */
  private whyNoWorkspace(): string {
    return this.deps.noWorkspace ?? `the workspace folder ${this.info.workspace} is missing`;
  }

  snapshot(): SessionState {
    return this.state;
  }

  allEvents(): readonly SessionEvent[] {
    return this.events;
  }

  summary(): SessionSummary {
    return {
      ...this.info,
      status: this.state.status,
      waiting: this.state.openCards.length + (this.state.openQuestion ? 1 : 0),
      ...(this.summarising > 0 ? { compacting: true } : {}),
      ...(this.placeNow ? { place: this.placeNow } : {}),
    };
  }

  async send(text: string): Promise<{ messageId: string; status: 'started' | 'queued' }> {
    if (this.state.openCards.length > 0) throw new SessionError('answer the open card first');
    if (this.state.openQuestion) throw new SessionError('answer the open question first');
    const messageId = this.deps.newId();
    if (this.live) {
      await this.append({ type: 'queued', messageId, text });
      // The turn may have ended while the line was written, after it looked for a next message.
      if (!this.live) await this.startNextQueued();
      return { messageId, status: 'queued' };
    }
    await this.start(messageId, text);
    return { messageId, status: 'started' };
  }

  async cancel(): Promise<{ cancelled: boolean; returned: QueuedMessage[] }> {
    const live = this.live;
    if (!live) return { cancelled: this.context.cancel(), returned: [] };
    const returned = this.state.queue.filter((q) => !this.unqueuing.has(q.messageId));
    if (returned.length > 0)
      await this.append({ type: 'queue_returned', messageIds: returned.map((q) => q.messageId) });
    live.controller.abort();
    await live.done;
    return { cancelled: true, returned };
  }

  /** Takes a queued message out before its turn starts. */
  async unqueue(messageId: string): Promise<{ removed: true }> {
    if (
      this.live?.messageId === messageId ||
      this.state.transcript.some((i) => i.kind === 'user' && i.messageId === messageId)
    ) {
      throw new SessionError(`message ${messageId} has already started; it can no longer be taken out of the queue`);
    }
    if (!this.state.queue.some((q) => q.messageId === messageId) || this.unqueuing.has(messageId)) {
      throw new SessionError(`no queued message with id ${messageId}`);
    }
    this.unqueuing.add(messageId);
    try {
      await this.append({ type: 'queue_removed', messageId });
    } finally {
      this.unqueuing.delete(messageId);
    }
    return { removed: true };
  }

  /** Hands the messages a cancel returned to the composer, once: they leave `returned`. */
  async takeReturned(): Promise<{ messages: QueuedMessage[] }> {
    // Two windows asking at once: each message goes to one of them only.
    const messages = this.state.returned.filter((m) => !this.taking.has(m.messageId));
    if (messages.length === 0) return { messages };
    const ids = messages.map((m) => m.messageId);
    for (const id of ids) this.taking.add(id);
    try {
      await this.append({ type: 'returned_taken', messageIds: ids });
    } finally {
      for (const id of ids) this.taking.delete(id);
    }
    return { messages };
  }

  /**
   * Taking files back under a running turn would pull them from under its next step. A
   * turn whose end is logged is let finish first (a queued message may start the next).
   */
  private async refuseWhileLive(what: string): Promise<void> {
    if (this.live && !this.state.turnId) await this.live.done;
    if (this.live || this.state.turnId)
      throw new SessionError(`stop the running turn first; ${what} changes files it may be using`);
    if (this.context.summarising) throw new SessionError(`a summary is being written; ${what} when it is done`);
  }

  /**
   * After the process started: a turn that was live when it stopped resumes where it
   * stood if a card or question was open (answering it carries the turn on); otherwise it
   * is marked interrupted and its queue handed back to the composer.
   */
  async recover(): Promise<void> {
    // An apply the process stopped in is settled first: its files are the person's, not the turn's.
    await this.place.recover();
    const { turnId, openCards, openQuestion } = this.state;
    if (!turnId) {
      await this.endUnstartedTurn();
      // Stopped between a turn's end and the next queued message's start: hand the queue back.
      await this.returnQueue();
      return;
    }
    if (openCards.length === 0 && !openQuestion) {
      const why = 'interrupted: the app stopped before this call finished';
      await removeInterruptedTemps(this.events, turnId, this.deps.workspace);
      for (const result of pendingResults(this.events, turnId, why)) await this.append(result);
      await this.append({
        type: 'turn_ended',
        turnId,
        reason: 'interrupted',
        message: 'the app stopped during this turn',
      });
      await this.returnQueue();
      return;
    }
    for (const extra of openCards.slice(1)) {
      await this.append({ type: 'card_withdrawn', cardId: extra.cardId, reason: 'only one card can wait per turn' });
    }
    if (!this.deps.workspace) {
      const message = this.whyNoWorkspace();
      for (const result of pendingResults(this.events, turnId, `not run: ${message}`)) await this.append(result);
      await this.append({ type: 'turn_ended', turnId, reason: 'interrupted', message });
      // No turn can start here, so a message queued behind this one goes back to the composer.
      await this.returnQueue();
      return;
    }
    // The model is looked up when the next step needs it, so a card stays answerable after a
    // restart even before a model is configured; that step then fails with a plain message.
    if (openCards[0]) this.parts.gate.expect(openCards[0]);
    if (openQuestion) this.parts.questions.expect(openQuestion.questionId);
    this.runTurn(turnId, { card: openCards[0], question: openQuestion ?? undefined });
  }

  /**
   * Stops the running turn for an app shutdown: its command is killed and its wait ends,
   * but the log is left as it stands so an open card reopens at the next start.
   */
  async dispose(): Promise<void> {
    // A place's base snapshot under way is let finish and logged: the next start need not take it again.
    await this.place.idle();
    this.closing = true;
    const live = this.live;
    if (live) {
      live.controller.abort();
      await live.done;
    }
    // The servers go with the session, whole process trees (after the turn, which may be calling one).
    await this.parts.servers?.dispose();
    await this.driver?.dispose?.();
    // Last: the turn's and the servers' final events still fold into the state.
    this.stopFollowingLog();
  }

  /** A message logged just before the process stopped, its turn never started: it gets an interrupted turn. */
  private async endUnstartedTurn(): Promise<void> {
    const messageId = unstartedMessage(this.events);
    if (messageId === null) return;
    const turnId = this.deps.newId();
    await this.append({ type: 'turn_started', turnId, messageId });
    const message = "the app stopped before this message's turn started";
    await this.append({ type: 'turn_ended', turnId, reason: 'interrupted', message });
  }

  private async returnQueue(): Promise<void> {
    if (this.state.queue.length === 0) return;
    await this.append({ type: 'queue_returned', messageIds: this.state.queue.map((q) => q.messageId) });
  }

  /** Resolves when no turn is running and the queue is empty. */
  async idle(): Promise<void> {
    while (this.live) await this.live.done;
  }

  private async start(messageId: string, text: string): Promise<void> {
    // An external agent brings its own model: only the native runner needs one chosen in Settings.
    const model = this.info.agent ? null : this.deps.chat(this.info.model).model;
    const turnId = this.deps.newId();
    const controller = new AbortController();
    // Claim the turn before the first await, so a second send queues behind it.
    let release = () => {};
    this.live = { turnId, messageId, controller, done: new Promise<void>((r) => (release = r)) };
    try {
      // Nothing runs in a place of its own before its base is snapshotted (SPEC §15).
      await this.place.ensureBase();
      if (model && (!this.info.model || !sameModel(this.info.model, model))) {
        this.info = { ...this.info, model };
        await this.deps.files.saveModel(model);
      }
      await this.append({ type: 'user_message', messageId, text });
      await this.append({ type: 'turn_started', turnId, messageId });
      this.runTurn(turnId, undefined, controller);
    } catch (err) {
      this.live = null;
      throw err;
    } finally {
      release();
    }
  }

  /** Hands the turn to the driver; its end starts the next queued message. */
  private runTurn(turnId: string, resume?: DriverResumePoint, controller = new AbortController()) {
    if (!this.driver) throw new SessionError(this.whyNoWorkspace());
    const done = this.driver
      .run({ turnId, signal: controller.signal, ...(resume ? { resume } : {}) })
      .catch((err: unknown) => {
        // The driver logs every failure itself; this is only reached when the log cannot be written.
        if (!this.closing)
          console.error(`session ${this.id}: the turn stopped because its log could not be written:`, err);
      })
      .then(() => this.afterTurn(turnId));
    this.live = { turnId, messageId: this.live?.turnId === turnId ? this.live.messageId : undefined, controller, done };
  }

  /** Ends the turn's waits and starts the next queued message. */
  private async afterTurn(turnId: string): Promise<void> {
    if (this.live?.turnId === turnId) this.live = null;
    this.parts.gate.forgetAll('its turn has ended');
    this.parts.questions.forgetAll();
    await this.startNextQueued();
  }

  /** Starts the next queued message, first in first out, unless a turn runs. */
  private async startNextQueued(): Promise<void> {
    const next = this.state.queue.find((q) => !this.unqueuing.has(q.messageId));
    if (!next || this.live || this.closing) return;
    try {
      await this.start(next.messageId, next.text);
    } catch (err) {
      this.live = null;
      await this.append({ type: 'error', message: `could not start the queued message: ${(err as Error).message}` });
      await this.append({ type: 'queue_returned', messageIds: this.state.queue.map((q) => q.messageId) });
    }
  }

  /**
   * The grant is already in (or out of) the state: the reducer adds it when card_answer is
   * folded and drops it on a later card_stale, both logged first. meta.json mirrors the
   * log for readers that do not fold it.
   */
  /**
   * Appends through the log, which orders the lines; the state follows in `applyEvent`.
   * Several appends issued together share one fsync (the log commits them as a group).
   */
  private append(payload: EventPayload): Promise<SessionEvent> {
    // After shutdown began nothing more is written, so the log keeps the turn as it stood.
    if (this.closing) return Promise.reject(new SessionError('the app is shutting down'));
    return this.deps.files.append(payload);
  }

  /** Folds a logged event into the state and pushes exactly the logged line to the UI. */
  private applyEvent(event: SessionEvent): void {
    const before = this.state.status;
    this.events.push(event);
    // The state is this session's own (snapshot() hands out no copy to keep), so it is folded in place.
    this.state = applyOwned(this.state, event);
    this.parts.modelContext.add(event);
    this.parts.servers?.add(event);
    this.info = { ...this.info, updatedAt: event.ts };
    this.deps.emit({ name: 'session.event', payload: { id: this.id, event } });
    if (event.type === 'place') this.placeNow = event.place;
    if (before !== this.state.status || event.type === 'card' || event.type === 'question' || event.type === 'place') {
      this.deps.emit({ name: 'sessions.changed', payload: { summary: this.summary() } });
    }
  }
}

/** A build without the places room: a session that has a place says it cannot use it here. */
function noPlaces(): Places {
  const refuse = () => {
    throw new PlaceError('sessions in a place of their own are not in this build');
  };
  return new Proxy({} as Places, { get: () => refuse });
}

function sameModel(a: ModelConfig, b: ModelConfig): boolean {
  return a.provider === b.provider && a.modelId === b.modelId && a.baseURL === b.baseURL;
}
