/**
 * One live session: its log and state, its gate, and at most one running turn. A
 * message sent while a turn runs waits in the FIFO queue; while a card or question is
 * open a new message is refused; cancel aborts the turn and hands the queue back.
 */
import type { Grant } from '../../../shared/cards.js';
import type { ModelConfig, Push, SessionSummary } from '../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { SessionCheckpoints, type CheckpointAccess } from '../checkpoints/session-checkpoints.js';
import type { ToolContext, ToolDef } from '../tools/types.js';
import { SessionCards } from './session-cards.js';
import { SessionContextCalls } from './session-context-calls.js';
import { SessionError } from './session-error.js';
import { SessionMcpCalls } from './session-mcp-calls.js';
import { SessionUndo } from './session-undo.js';
import type { DriverFactory, DriverResumePoint, DriverSeam, SessionDriver } from './session-driver.js';
import { applyOwned, foldEvents, type QueuedMessage, type SessionState } from '../../../shared/reducer.js';
import type { DiffFn } from '../gate/card-body.js';
import { Gate, type Planner } from '../gate/gate.js';
import type { Workspace } from '../paths/workspace.js';
import { Questions } from '../runner/questions.js';
import type { ChatClient } from '../chat/chat-client.js';
import { SessionContext } from '../context/session-context.js';
import type { CommandConfinement } from '../context/system-prompt.js';
import { withAgentTools } from '../runner/agent-tools.js';
import { pendingResults } from '../runner/pending-calls.js';
import { Runner } from '../runner/runner.js';
import { Tools, WORKSPACE_TOOLS } from '../tools/tools.js';
import { removeInterruptedTemps } from './interrupted-writes.js';
import { SessionMcp, type SessionMcpDeps } from '../mcp/session-mcp.js';
import { unstartedMessage } from './unstarted-message.js';

/** The session's files on disk, as the session uses them. */
export interface SessionFiles {
  /** Resolves once the event is durable. */
  append(payload: EventPayload): Promise<SessionEvent>;
  /** Called for each event in seq order as soon as its line is written (before it is durable). */
  onAppend(listener: (event: SessionEvent) => void): () => void;
  putBlob(bytes: Buffer): Promise<string>;
  getBlob(id: string): Promise<Buffer>;
  /** Replaces the grants in meta.json (atomically) and bumps updatedAt. */
  saveGrants(grants: Grant[]): Promise<void>;
  /** Records the model a turn runs with, and bumps updatedAt. */
  saveModel(model: ModelConfig): Promise<void>;
}

export interface SessionInfo {
  id: string;
  title: string;
  workspace: string;
  model: ModelConfig | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionDeps {
  info: SessionInfo;
  events: SessionEvent[];
  files: SessionFiles;
  /** null when the workspace folder is gone or refused: the session can be read but runs no turn. */
  workspace: Workspace | null;
  /** Why there is no workspace, in the words every refused turn and MCP call says; by default "missing". */
  noWorkspace?: string;
  /** The workspace's tools work in this; null when the session has no workspace (`noWorkspace` says why). */
  toolContext: ToolContext | null;
  diff: DiffFn;
  /** The chat client for a model, or a SessionError saying plainly how to configure one. */
  chat: (model: ModelConfig | null) => { chat: ChatClient; model: ModelConfig };
  home: string;
  newId: () => string;
  emit: (push: Push) => void;
  clock?: () => Date;
  /** Whether commands run confined here, for what the model is told. */
  commands?: () => Promise<CommandConfinement>;
  /** The workspace's checkpoint store (SPEC §12), opened on first use; without it nothing is snapshotted. */
  checkpoints?: CheckpointAccess;
  /** Drives the session's turns, through the seam only; by default the native runner. */
  driver?: DriverFactory;
  /** The session's MCP servers (SPEC §10); the session wires the gate and the log in. */
  mcp?: Omit<SessionMcpDeps, 'events' | 'grants' | 'append' | 'gate' | 'changed'> & { changed: (id: string) => void };
}

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
  private readonly gate: Gate;
  /** Stops this session following its log's appends, when it is disposed. */
  private readonly stopFollowingLog: () => void;
  /** The workspace's tools and this session's MCP servers' tools, in one registry. */
  private readonly tools: Planner & { definitions(): readonly ToolDef[] };
  /** The session's MCP servers: released with the session. */
  private readonly servers: SessionMcp | null;
  /** What the model sees, kept with the session (not per turn) so its incremental state lasts. */
  private readonly modelContext: SessionContext;
  /** The `card.*` calls: write cards' texts, edits and answers. */
  readonly cards: SessionCards;
  /** The `question.*` calls: answers to the agent's questions. */
  readonly questions: Questions;
  /** The `mcp.*` calls: the session's servers. */
  readonly mcp: SessionMcpCalls;
  /** The context calls: what the model sees, and Compact now. */
  readonly context: SessionContextCalls;
  /** The checkpoint calls: changes, undo, redo and rewind (SPEC §12). */
  readonly checkpoints: SessionUndo;
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
    this.tools = deps.toolContext
      ? new Tools(deps.toolContext, WORKSPACE_TOOLS, () => this.servers?.definitions() ?? NO_TOOLS)
      : refusingTools(deps.noWorkspace ?? 'this session has no workspace');
    this.modelContext = new SessionContext({
      sessionId: deps.info.id,
      events: this.events,
      workspace: deps.workspace,
      home: deps.home,
      tools: () => withAgentTools(this.tools.definitions()),
      mcpNotes: () => this.servers?.modelNotes() ?? null,
      getBlob: (id) => deps.files.getBlob(id),
      append: (p) => this.append(p),
      commands: deps.commands,
      onCompacting: (compacting) => {
        this.summarising += compacting ? 1 : -1;
        deps.emit({ name: 'session.compacting', payload: { id: this.id, compacting } });
      },
    });
    this.servers = deps.mcp
      ? new SessionMcp({
          ...deps.mcp,
          events: this.events,
          grants: () => this.state.grants,
          append: (p) => this.appendAndSaveGrants(p),
          gate: (call, exec, via) => this.gate.run(call, exec, via),
          changed: () => deps.mcp?.changed(this.id),
        })
      : null;
    this.stopFollowingLog = deps.files.onAppend((event) => this.applyEvent(event));
    this.questions = new Questions((p) => this.append(p));
    const store = new SessionCheckpoints({
      open: async () => ({ unavailable: this.whyNoCheckpoints() }),
      ...deps.checkpoints,
      events: this.events,
      state: () => this.state,
      append: (p) => this.append(p),
    });
    this.gate = new Gate({
      tools: this.tools,
      bracket: store.bracket,
      record: { append: (p) => this.append(p), putBlob: (b) => deps.files.putBlob(b) },
      grants: {
        list: () => this.state.grants,
        persist: () => this.deps.files.saveGrants(this.state.grants),
      },
      diff: deps.diff,
      newId: deps.newId,
    });
    this.checkpoints = new SessionUndo(store, (what) => this.refuseWhileLive(what));
    this.cards = new SessionCards({
      events: this.events,
      getBlob: (id) => deps.files.getBlob(id),
      diff: deps.diff,
      gate: this.gate,
      state: () => this.state,
    });
    this.mcp = new SessionMcpCalls(this.servers, () => this.whyNoWorkspace());
    this.context = new SessionContextCalls({
      context: this.modelContext,
      chat: () => deps.chat(this.info.model),
      liveTurn: () => (this.live ? { turnId: this.live.turnId, signal: this.live.controller.signal } : null),
    });
    this.driver = deps.workspace ? (deps.driver ?? this.nativeRunner)(this.seam(deps.workspace)) : null;
  }

  /** The native runner: the seed's tool loop against the session's model. */
  private readonly nativeRunner: DriverFactory = (seam) =>
    new Runner({ ...seam, model: () => this.deps.chat(this.info.model) });

  /** The doors a driver gets: the log through append, the gate through its door, and the transcript's live rows. */
  private seam(workspace: Workspace): DriverSeam {
    return {
      record: {
        append: (p) => this.append(p),
        putBlob: (b) => this.deps.files.putBlob(b),
        getBlob: (id) => this.deps.files.getBlob(id),
        events: () => this.events,
      },
      // Doors, not the objects: a driver cannot reach the gate's maps or the answers' waits.
      gate: {
        run: (call, exec, via) => this.gate.run(call, exec, via),
        resume: (card, call, exec) => this.gate.resume(card, call, exec),
        forget: (cardId, reason) => this.gate.forget(cardId, reason),
      },
      questions: {
        expect: (questionId) => this.questions.expect(questionId),
        wait: (questionId, signal) => this.questions.wait(questionId, signal),
      },
      context: this.modelContext,
      ...(this.servers ? { mcp: this.servers } : {}),
      workspace,
      home: this.deps.home,
      newId: this.deps.newId,
      onDelta: (turnId, text, reset) =>
        this.deps.emit({ name: 'session.delta', payload: { id: this.id, turnId, text, ...(reset ? { reset } : {}) } }),
      onOutput: (toolCallId, stream, chunk) =>
        this.deps.emit({ name: 'session.output', payload: { id: this.id, toolCallId, stream, chunk } }),
    };
  }

  /** An MCP tool change voids grants: the log says so first, then meta.json follows it. */
  private async appendAndSaveGrants(payload: EventPayload): Promise<SessionEvent> {
    const event = await this.append(payload);
    await this.deps.files.saveGrants(this.state.grants);
    return event;
  }

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
    };
  }

  async send(text: string): Promise<{ messageId: string; status: 'started' | 'queued' }> {
    if (this.state.openCards.length > 0) throw new SessionError('answer the open card first');
    if (this.state.openQuestion) throw new SessionError('answer the open question first');
    const messageId = this.deps.newId();
    if (this.live) {
      await this.append({ type: 'queued', messageId, text });
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

  private whyNoCheckpoints(): string {
    return this.deps.workspace ? 'checkpoints are not set up for this session' : this.whyNoWorkspace();
  }

  /**
   * After the process started: a turn that was live when it stopped resumes where it
   * stood if a card or question was open (answering it carries the turn on); otherwise it
   * is marked interrupted and its queue handed back to the composer.
   */
  async recover(): Promise<void> {
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
    if (openCards[0]) this.gate.expect(openCards[0]);
    if (openQuestion) this.questions.expect(openQuestion.questionId);
    this.runTurn(turnId, { card: openCards[0], question: openQuestion ?? undefined });
  }

  /**
   * Stops the running turn for an app shutdown: its command is killed and its wait ends,
   * but the log is left as it stands so an open card reopens at the next start.
   */
  async dispose(): Promise<void> {
    this.closing = true;
    const live = this.live;
    if (live) {
      live.controller.abort();
      await live.done;
    }
    // The servers go with the session, whole process trees (after the turn, which may be calling one).
    await this.servers?.dispose();
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
    const resolved = this.deps.chat(this.info.model);
    const { model } = resolved;
    const turnId = this.deps.newId();
    const controller = new AbortController();
    // Claim the turn before the first await, so a second send queues behind it.
    let release = () => {};
    this.live = { turnId, messageId, controller, done: new Promise<void>((r) => (release = r)) };
    try {
      if (!this.info.model || !sameModel(this.info.model, model)) {
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

  /** Starts the next queued message, first in first out. */
  private async afterTurn(turnId: string): Promise<void> {
    if (this.live?.turnId === turnId) this.live = null;
    this.gate.forgetAll('its turn has ended');
    this.questions.forgetAll();
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
    this.modelContext.add(event);
    this.servers?.add(event);
    this.info = { ...this.info, updatedAt: event.ts };
    this.deps.emit({ name: 'session.event', payload: { id: this.id, event } });
    if (before !== this.state.status || event.type === 'card' || event.type === 'question') {
      this.deps.emit({ name: 'sessions.changed', payload: { summary: this.summary() } });
    }
  }
}

function sameModel(a: ModelConfig, b: ModelConfig): boolean {
  return a.provider === b.provider && a.modelId === b.modelId && a.baseURL === b.baseURL;
}

const NO_TOOLS: readonly ToolDef[] = Object.freeze([]);

/** A session with no workspace: every tool call says why, in the refusal's words. */
function refusingTools(why: string): Planner & { definitions(): readonly ToolDef[] } {
  const fail = async (): Promise<never> => {
    throw new SessionError(why);
  };
  return { plan: fail, execute: fail, definitions: () => NO_TOOLS };
}
