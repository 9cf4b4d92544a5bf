/**
 * The seam between a session and what drives its turns (DESIGN.md, "Sessions and their
 * drivers"). A session *has* a log, a gate with its cards, checkpoints, a context and MCP
 * servers; a driver *drives* a turn with them. The native runner is the first driver; an
 * external agent over ACP is the next. Both append the same events through the same gate,
 * so the transcript, the waiting list and undo cannot tell them apart.
 *
 * The seam is about turns and events, not about a model: a driver gets the doors below
 * and nothing else. It never reaches into the gate's maps or the log's file; a card is
 * raised, answered and bracketed by checkpoints only inside `gate.run`.
 */
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { CardEvent, QuestionEvent } from '../../../shared/reducer.js';
import type { SessionContext } from '../context/session-context.js';
import type { Gate } from '../gate/permission-gate.js';
import type { Workspace } from '../paths/workspace.js';
import type { Questions } from '../runner/questions.js';
import type { ToolDef } from '../tools/tool-def.js';

/** What a driver gets from the session it drives. */
export interface DriverSeam {
  /** The session's log: appends go in order and fold into the state; blobs; the events so far. */
  record: {
    append(payload: EventPayload): Promise<SessionEvent>;
    putBlob(bytes: Buffer): Promise<string>;
    getBlob(id: string): Promise<Buffer>;
    events(): readonly SessionEvent[];
  };
  /**
   * The gate's door for a planned call: `run` plans, classifies, raises a card when one is
   * needed, and executes inside the checkpoint bracket; `resume` takes up a card open in
   * the log after a restart; `forget` withdraws a wait the driver will not take up.
   */
  gate: Pick<Gate, 'run' | 'resume' | 'forget'>;
  /** The agent's questions to the person: expect one before it is logged, then wait for its answer. */
  questions: Pick<Questions, 'expect' | 'wait'>;
  /** What a model sees, for a driver that builds its requests from the session (the native runner). */
  context: SessionContext;
  /** The session's MCP servers, started (or asked for) before a turn's first request. */
  mcp?: { prepare(turnId: string, signal: AbortSignal): Promise<void> };
  workspace: Workspace;
  /**
   * The tools of the session's place of its own (propose_apply while it is active; none in the
   * person's folder): an external agent's gate face offers them beside the workspace tools.
   */
  placeTools?: () => readonly ToolDef[];
  home: string;
  newId: () => string;
  /** The transcript's live rows that are not logged: streamed text (`reset` drops the step's so far)… */
  onDelta: (turnId: string, text: string, reset?: boolean) => void;
  /** …and a running command's output. */
  onOutput: (toolCallId: string, stream: 'stdout' | 'stderr', chunk: string) => void;
}

/** Where a turn stood when the app stopped: the card or question it waited on. */
export interface DriverResumePoint {
  card?: CardEvent;
  question?: QuestionEvent;
}

/** One turn, as the session hands it to its driver. */
export interface DriverTurn {
  /** Logged already: the session wrote `turn_started` (and the message) before the driver runs. */
  turnId: string;
  /** Cancel and shutdown both abort it: the driver closes its pending calls and logs how the turn ended. */
  signal: AbortSignal;
  /** After a restart: what the turn waited on. Absent for a turn started on a new message. */
  resume?: DriverResumePoint;
}

/** What a driver offers: run a turn (new, or resumed after a restart) to its end. */
export interface SessionDriver {
  /**
   * Drives the turn until it ends and logs `turn_ended` (finished, cancelled or error),
   * with a result for every call it logged. Rejects only when the log cannot be written.
   */
  run(turn: DriverTurn): Promise<void>;
  /** Lets go of what outlives a turn (an external agent's process, the gate's face for it), when the session closes. */
  dispose?(): Promise<void>;
}

/** Makes a session's driver from its seam; the session calls it once. */
export type DriverFactory = (seam: DriverSeam) => SessionDriver;
