/**
 * What a session *has* (DESIGN.md, "Sessions and their drivers"): the tools, the gate with
 * its cards, the checkpoints, the model's context, the MCP servers and the questions, wired
 * to the session's log and state; the parts the contract's calls are routed to; and the
 * seam a driver gets. The session keeps the turn, the queue, recovery and the fold.
 */
import type { ModelConfig } from '../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { SessionState } from '../../../shared/reducer.js';
import { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';
import { SessionContext } from '../context/session-context.js';
import { Gate, type Planner } from '../gate/permission-gate.js';
import { SessionMcp } from '../mcp/session-mcp.js';
import type { Workspace } from '../paths/workspace.js';
import { withAgentTools } from '../runner/agent-tools.js';
import { Questions } from '../runner/questions.js';
import { Tools, WORKSPACE_TOOLS } from '../tools/tools.js';
import type { ToolDef } from '../tools/tool-def.js';
import { SessionCards } from './session-cards.js';
import { SessionContextCalls } from './session-context-calls.js';
import type { SessionDeps } from './session-deps.js';
import type { DriverSeam } from './session-driver.js';
import { SessionError } from './session-error.js';
import { SessionMcpCalls } from './session-mcp-calls.js';
import { SessionUndo } from './session-undo.js';

/** What the parts need of the session that has them: its log, its state and its turn. */
export interface PartsOwner {
  readonly id: string;
  /** The session's events, in seq order; the parts read it, the session's fold appends to it. */
  readonly events: readonly SessionEvent[];
  state(): SessionState;
  append(payload: EventPayload): Promise<SessionEvent>;
  /** The model the session last ran with. */
  model(): ModelConfig | null;
  /** The running turn, if any. */
  liveTurn(): { turnId: string; signal: AbortSignal } | null;
  /** Resolves when files may be taken back; throws while a turn or summary may use them. */
  whenIdle(what: string): Promise<void>;
  /** The words for a session without its workspace. */
  whyNoWorkspace(): string;
  /** A summary started (true) or ended (false). */
  onCompacting(compacting: boolean): void;
  /** The tools of the session's place (propose_apply while it has an active one); the same array while that holds. */
  placeTools(): readonly ToolDef[];
}

export interface SessionParts {
  /** The workspace's tools and this session's MCP servers' tools, in one registry. */
  readonly tools: Planner & { definitions(): readonly ToolDef[] };
  readonly gate: Gate;
  /** The session's MCP servers: released with the session. */
  readonly servers: SessionMcp | null;
  /** What the model sees, kept with the session (not per turn) so its incremental state lasts. */
  readonly modelContext: SessionContext;
  /** The `question.*` calls, and the questions a driver asks. */
  readonly questions: Questions;
  /** The `card.*` calls: write cards' texts, edits and answers. */
  readonly cards: SessionCards;
  /** The `mcp.*` calls. */
  readonly mcp: SessionMcpCalls;
  /** `session.context` and `session.compact`. */
  readonly context: SessionContextCalls;
  /** `session.changes`, `.undo`, `.redo` and `.rewind` (SPEC §12). */
  readonly checkpoints: SessionUndo;
}

export function sessionParts(deps: SessionDeps, owner: PartsOwner): SessionParts {
  const { events } = owner;
  const append = (p: EventPayload) => owner.append(p);
  // The tools, the context and the servers name each other; each reads the others only when called.
  let servers: SessionMcp | null = null;
  const extra = stableJoin(
    () => servers?.definitions() ?? NO_TOOLS,
    () => owner.placeTools(),
  );
  const tools: SessionParts['tools'] = deps.toolContext
    ? new Tools(deps.toolContext, WORKSPACE_TOOLS, extra)
    : refusingTools(deps.noWorkspace ?? 'this session has no workspace');
  const modelContext = new SessionContext({
    sessionId: owner.id,
    events,
    workspace: deps.workspace,
    home: deps.home,
    tools: () => withAgentTools(tools.definitions()),
    mcpNotes: () => servers?.modelNotes() ?? null,
    getBlob: (id) => deps.files.getBlob(id),
    append,
    commands: deps.commands,
    onCompacting: (compacting) => owner.onCompacting(compacting),
  });
  servers = deps.mcp
    ? new SessionMcp({
        ...deps.mcp,
        events,
        grants: () => owner.state().grants,
        // An MCP tool change voids grants: the log says so first, then meta.json follows it.
        append: async (p) => {
          const event = await owner.append(p);
          await deps.files.saveGrants(owner.state().grants);
          return event;
        },
        gate: (call, exec, via) => gate.run(call, exec, via),
        changed: () => deps.mcp?.changed(owner.id),
      })
    : null;
  const store = new SessionCheckpoints({
    open: async () => ({
      unavailable: deps.workspace ? 'checkpoints are not set up for this session' : owner.whyNoWorkspace(),
    }),
    ...deps.checkpoints,
    events,
    state: () => owner.state(),
    append,
  });
  const gate = new Gate({
    tools,
    bracket: store.bracket,
    record: { append, putBlob: (b) => deps.files.putBlob(b) },
    grants: {
      list: () => owner.state().grants,
      persist: () => deps.files.saveGrants(owner.state().grants),
    },
    diff: deps.diff,
    newId: deps.newId,
  });
  return {
    tools,
    gate,
    servers,
    modelContext,
    questions: new Questions(append),
    cards: new SessionCards({
      events,
      getBlob: (id) => deps.files.getBlob(id),
      diff: deps.diff,
      gate,
      state: () => owner.state(),
    }),
    mcp: new SessionMcpCalls(servers, () => owner.whyNoWorkspace()),
    context: new SessionContextCalls({
      context: modelContext,
      chat: () => deps.chat(owner.model()),
      liveTurn: () => owner.liveTurn(),
    }),
    checkpoints: new SessionUndo(store, (what) => owner.whenIdle(what)),
  };
}

/** The doors a driver gets: the log through append, the gate and questions through theirs, the transcript's live rows. */
export function driverSeam(
  parts: SessionParts,
  deps: SessionDeps,
  owner: PartsOwner,
  workspace: Workspace,
): DriverSeam {
  const { gate, questions } = parts;
  return {
    record: {
      append: (p) => owner.append(p),
      putBlob: (b) => deps.files.putBlob(b),
      getBlob: (id) => deps.files.getBlob(id),
      events: () => owner.events,
    },
    // Doors, not the objects: a driver cannot reach the gate's maps or the answers' waits.
    gate: {
      run: (call, exec, via) => gate.run(call, exec, via),
      resume: (card, call, exec, via) => gate.resume(card, call, exec, via),
      forget: (cardId, reason) => gate.forget(cardId, reason),
    },
    questions: {
      expect: (questionId) => questions.expect(questionId),
      wait: (questionId, signal) => questions.wait(questionId, signal),
    },
    context: parts.modelContext,
    ...(parts.servers ? { mcp: parts.servers } : {}),
    workspace,
    placeTools: () => owner.placeTools(),
    home: deps.home,
    newId: deps.newId,
    onDelta: (turnId, text, reset) =>
      deps.emit({ name: 'session.delta', payload: { id: owner.id, turnId, text, ...(reset ? { reset } : {}) } }),
    onOutput: (toolCallId, stream, chunk) =>
      deps.emit({ name: 'session.output', payload: { id: owner.id, toolCallId, stream, chunk } }),
  };
}

const NO_TOOLS: readonly ToolDef[] = Object.freeze([]);

/**
 * Two lists of tools as one, the same array for as long as both stay the same arrays: the
 * model's tool block stays byte for byte (and cached) until one of them changes.
 */
function stableJoin(first: () => readonly ToolDef[], second: () => readonly ToolDef[]): () => readonly ToolDef[] {
  let last: { a: readonly ToolDef[]; b: readonly ToolDef[]; all: readonly ToolDef[] } | null = null;
  return () => {
    const a = first();
    const b = second();
    if (last?.a !== a || last.b !== b) last = { a, b, all: b.length === 0 ? a : [...a, ...b] };
    return last.all;
  };
}

/** A session with no workspace: every tool call says why, in the refusal's words. */
function refusingTools(why: string): SessionParts['tools'] {
  const fail = async (): Promise<never> => {
    throw new SessionError(why);
  };
  return { plan: fail, execute: fail, definitions: () => NO_TOOLS };
}
