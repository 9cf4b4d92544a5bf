/**
 * The ACP driver (SPEC §14, acp-design.md): drives a session's turns with an external
 * agent over ACP instead of the native runner. The agent is started through the gate (an
 * `agent_start` card), spoken to over its stdio, and everything it does that the gate
 * holds comes back through the gate: its fs writes and reads here, its commands and MCP
 * writes through the gate's MCP face, its own permission requests as `agent_ask` cards.
 *
 * One turn, as it goes:
 *
 *     start card (unless the session allowed this launch) ─► launch ─► initialize ─►
 *     session/new (or session/load after a restart) ─► session/prompt ─► updates… ─►
 *     stop reason ─► turn_ended
 *
 * The process outlives a turn; a crash is found at the next turn, which launches again.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AgentStartCardBody } from '../../../shared/cards.js';
import type { SessionAgent } from '../../../shared/agents.js';
import type { TurnEndReason } from '../../../shared/events.js';
import type { CardEvent } from '../../../shared/reducer.js';
import { CancelledError } from '../gate/gate-error.js';
import type { Planner } from '../gate/permission-gate.js';
import { loadToolArgs } from '../log/stored-tool-args.js';
import type { DriverFactory, DriverSeam, DriverTurn, SessionDriver } from '../sessions/session-driver.js';
import type { ToolResult } from '../tools/tool-def.js';
import { AcpFs, CANCELLED_CALL, rawReadPlanner, type LiveTurn, type MissingFileAnswer } from './acp-fs.js';
import { AcpLink } from './acp-link.js';
import { AcpPermission } from './acp-permission.js';
import { TurnUpdates } from './acp-updates.js';
import { agentAskCall, agentPlanner, agentStartCall } from './agent-ask-tool.js';
import type { AgentProcess } from './agent-process.js';

export type { AgentProcess } from './agent-process.js';
export type { LiveTurn } from './acp-fs.js';

export interface AcpDriverOptions {
  agent: SessionAgent;
  /** The `agent_start` card's body for the launch as it would start now (the jail builds it). */
  startPlan(): Promise<AgentStartCardBody>;
  /** Starts the process after the start card was allowed (the jail in the app; plain spawn in tests). */
  launch(signal: AbortSignal): Promise<AgentProcess>;
  /** The MCP servers given in session/new (the gate's face as the agent reaches it). */
  mcpServers(): acp.McpServer[];
  /** Extra _meta for session/new (Claude Code's options). */
  sessionMeta?: Record<string, unknown>;
  /** The auth method to use when the agent lists it (e.g. 'gemini-api-key'). */
  authMethod?: string;
  /** How `fs/read_text_file` answers a file that is not there (acp-fs.ts, MissingFileAnswer). */
  missingFile?: MissingFileAnswer;
  /** false: the agent is offered no file callbacks (a staged agent, SPEC §15); true by default. */
  clientFiles?: boolean;
  /** The gate's MCP server name as the agent is given it, whose calls the MCP face logs itself. */
  gateServerName?: string;
  initializeTimeoutMs?: number;
  /** How long a cancelled prompt may take to return before the process is stopped. */
  cancelGraceMs?: number;
  /**
   * Resolves once every call the gate's MCP face took for the turn has logged its result
   * (its `idle`): awaited before `turn_ended`, after the face's calls were told the turn ends.
   */
  settled?(): Promise<void>;
}

/** The live turn, for the gate's MCP face: a call that comes with no turn live is refused. */
export interface LiveTurnDoor {
  current(): LiveTurn | null;
}

export const GATE_SERVER_NAME = 'gatehouse';
const INITIALIZE_TIMEOUT_MS = 60_000;
const CANCEL_GRACE_MS = 5_000;
export const NO_MEMORY = 'starts without its memory of earlier turns: it could not take up its earlier session';
const NO_TURN = 'no Gatehouse turn is running: requests are taken only during a turn';

/** A turn the driver is running: the doors it gives the agent's requests, and its updates in order. */
interface Live extends LiveTurn {
  updates: TurnUpdates;
  /** Updates are applied one after another, in arrival order. */
  queue: Promise<void>;
  failed: unknown;
  /** Aborted as the turn's end is logged: what the MCP face still runs for it ends with it. */
  ending: AbortController;
  /** The turn's signal or its end, whichever comes first: the signal the MCP face runs its calls with. */
  doorSignal: AbortSignal;
}

/** Makes the driver of one session; `turn` and `stop` are that driver's, for the MCP face and the session's end. */
export function acpDriver(opts: AcpDriverOptions): DriverFactory & { turn: LiveTurnDoor; stop(): Promise<void> } {
  let driver: AcpDriver | null = null;
  const factory = (seam: DriverSeam) => (driver = new AcpDriver(seam, opts));
  return Object.assign(factory, {
    turn: { current: () => driver?.current() ?? null },
    stop: async () => driver?.stop(),
  });
}

class AcpDriver implements SessionDriver {
  private link: AcpLink | null = null;
  private live: Live | null = null;
  private readonly planner: Planner;
  private readonly files: AcpFs;
  private readonly permission: AcpPermission;

  constructor(
    private readonly seam: DriverSeam,
    private readonly opts: AcpDriverOptions,
  ) {
    this.planner = agentPlanner(() => opts.startPlan());
    this.files = new AcpFs(seam, opts.missingFile);
    this.permission = new AcpPermission(seam, opts.agent, this.planner);
  }

  current(): LiveTurn | null {
    return this.live ? { turnId: this.live.turnId, signal: this.live.doorSignal } : null;
  }

  async stop(): Promise<void> {
    const link = this.link;
    this.link = null;
    await link?.stop();
  }

  async run(turn: DriverTurn): Promise<void> {
    const { turnId, signal } = turn;
    const updates = new TurnUpdates(this.seam, turnId, this.opts.gateServerName ?? GATE_SERVER_NAME);
    const ending = new AbortController();
    const doorSignal = AbortSignal.any([signal, ending.signal]);
    const live: Live = { turnId, signal, updates, queue: Promise.resolve(), failed: null, ending, doorSignal };
    this.live = live;
    try {
      const resumed = turn.resume?.card ? await this.resumeCard(live, turn.resume.card) : { goOn: true };
      if (!resumed.goOn) return;
      const link = await this.ready(live);
      if (!link) return;
      if (resumed.note && !link.loaded) {
        const why = `${this.opts.agent.label} stopped with the app while its request waited, and it cannot take up its session to be told your answer; send a message to carry on`;
        await this.end(turnId, 'interrupted', why);
        return;
      }
      const message = this.messageText(turnId);
      const stop = await this.prompt(link, live, resumed.note ? `${resumed.note}\n\n${message}` : message);
      await this.settleUpdates(live);
      await updates.close();
      await this.end(turnId, ...endOf(signal.aborted ? 'cancelled' : stop));
    } catch (err) {
      await this.endOnError(live, err);
    } finally {
      this.live = null;
    }
  }

  /**
   * A card open when the app stopped. The start card is taken up as it was (the turn then
   * goes on: the prompt was never sent). A card raised by a request of the agent's is
   * answered and carried out; the process that asked went with the app, so the turn goes
   * on only with an agent that can load its session, told in words what became of its
   * request (`note`). Else the turn ends interrupted, saying why.
   */
  private async resumeCard(live: Live, card: CardEvent): Promise<Resumed> {
    const exec = { signal: live.signal };
    if (card.body.kind === 'agent_start') {
      const call = agentStartCall(live.turnId, card.toolCallId, this.opts.agent.id);
      const r = await this.seam.gate.resume(card, call, exec, this.planner);
      if (r.ok) return { goOn: true };
      await this.notStarted(live.turnId, r.error);
      return { goOn: false };
    }
    if (card.body.kind === 'agent_ask') {
      const { kind: _kind, ...asked } = card.body;
      const call = agentAskCall(live.turnId, card.toolCallId, asked);
      const r = await this.cancellable(live, () => this.seam.gate.resume(card, call, exec, this.planner));
      const what = `your permission request "${asked.title}" (${asked.toolKind})`;
      return { goOn: true, note: restartNote(what, r.ok ? 'the user allowed it' : 'the user did not allow it') };
    }
    const logged = this.seam.record.events().find((e) => e.type === 'tool_call' && e.toolCallId === card.toolCallId);
    if (logged?.type !== 'tool_call') {
      // A card of no call of this driver's: nothing is left to carry on.
      const reason = 'the app restarted; the call that raised it is not known';
      this.seam.gate.forget(card.cardId, reason);
      await this.seam.record.append({ type: 'card_withdrawn', cardId: card.cardId, reason });
      await this.end(live.turnId, 'interrupted', `the app stopped while ${this.opts.agent.label} waited on a card`);
      return { goOn: false };
    }
    const args = await loadToolArgs(logged, { get: (id) => this.seam.record.getBlob(id) });
    const via = logged.tool === 'read_file' ? rawReadPlanner(this.seam.workspace) : undefined;
    const call = { turnId: live.turnId, toolCallId: logged.toolCallId, tool: logged.tool, args };
    const r = await this.cancellable(live, () => this.seam.gate.resume(card, call, exec, via));
    const output = r.ok ? r.output : r.error;
    const { turnId } = live;
    await this.seam.record.append({
      type: 'tool_result',
      turnId,
      toolCallId: logged.toolCallId,
      tool: logged.tool,
      ok: r.ok,
      output,
    });
    if (live.signal.aborted) throw new CancelledError();
    const path = (args as { path?: unknown }).path;
    const what = `your ${logged.tool === 'read_file' ? 'read' : 'write'} of ${String(path)}`;
    const outcome = r.ok
      ? logged.tool === 'read_file'
        ? 'the user allowed it; read the file again to see it'
        : 'the user allowed it and the file was written as you asked'
      : `it was not done: ${r.error}`;
    return { goOn: true, note: restartNote(what, outcome) };
  }

  /** A gate call whose cancel is its result, in the words every cancelled call gets. */
  private async cancellable(live: Live, call: () => Promise<ToolResult>): Promise<ToolResult> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof CancelledError) && !live.signal.aborted) throw err;
      return { ok: false, error: CANCELLED_CALL };
    }
  }

  /** The agent running with a session: as it is, or started through the gate. Null when its start was refused (the turn has ended). */
  private async ready(live: Live): Promise<AcpLink | null> {
    if (this.link && !this.link.dead) return this.link;
    this.link = null;
    if (!this.allowedJustNow(live)) {
      const call = agentStartCall(live.turnId, `agent-start:${this.seam.newId()}`, this.opts.agent.id);
      const r = await this.seam.gate.run(call, { signal: live.signal }, this.planner);
      if (!r.ok) {
        await this.notStarted(live.turnId, r.error);
        return null;
      }
    }
    const process = await this.opts.launch(live.signal);
    const link = await AcpLink.open(process, this.clientApp(), {
      initializeTimeoutMs: this.opts.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS,
      ...(this.opts.authMethod ? { authMethod: this.opts.authMethod } : {}),
      ...(this.opts.clientFiles === false ? { clientFiles: false } : {}),
    });
    this.link = link;
    await this.openSession(link);
    return link;
  }

  /** The start card of this very turn was just answered yes after a restart: no second card. */
  private allowedJustNow(live: Live): boolean {
    const events = this.seam.record.events();
    const card = events.findLast((e) => e.type === 'card' && e.turnId === live.turnId && e.body.kind === 'agent_start');
    if (!card || card.type !== 'card') return false;
    return events.some((e) => e.type === 'card_answer' && e.cardId === card.cardId && e.answer !== 'deny');
  }

  /** session/load of the session the log names, where the agent can; else a new one (and one line when memory is lost). */
  private async openSession(link: AcpLink): Promise<void> {
    const earlier = this.seam.record
      .events()
      .findLast((e) => e.type === 'agent_session' && e.agent.id === this.opts.agent.id);
    const cwd = this.seam.workspace.root;
    const mcpServers = this.opts.mcpServers();
    if (earlier?.type === 'agent_session' && link.canLoad) {
      try {
        await link.connection.agent.request(acp.methods.agent.session.load, {
          sessionId: earlier.agentSessionId,
          cwd,
          mcpServers,
        });
        link.sessionId = earlier.agentSessionId;
        link.loaded = true;
        return;
      } catch {
        // Its session is gone (or it cannot load it after all): a new one, said below.
      }
    }
    const meta = this.opts.sessionMeta ? { _meta: this.opts.sessionMeta } : {};
    const made = await link.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers, ...meta });
    link.sessionId = made.sessionId;
    await this.seam.record.append({ type: 'agent_session', agent: this.opts.agent, agentSessionId: made.sessionId });
    if (earlier && this.live) {
      await this.seam.record.append({
        type: 'result',
        turnId: this.live.turnId,
        summary: `${this.opts.agent.label} ${NO_MEMORY}.`,
      });
    }
  }

  /** The client side of ACP: the agent's requests go to the live turn, its updates into the turn's queue. */
  private clientApp(): acp.ClientApp {
    return acp
      .client({ name: 'gatehouse' })
      .onNotification(acp.methods.client.session.update, ({ params }) => this.onUpdate(params))
      .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) =>
        this.files.write(await this.inTurn(), params),
      )
      .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => this.files.read(await this.inTurn(), params))
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) =>
        this.permission.ask(await this.inTurn(), params),
      );
  }

  private onUpdate(params: acp.SessionNotification): void {
    const live = this.live;
    // The session id is set once session/load has returned: the history it replays is the log's already.
    if (!live || params.sessionId !== this.link?.sessionId) return;
    live.queue = live.queue
      .then(() => live.updates.apply(params.update))
      .catch((err: unknown) => {
        live.failed ??= err;
      });
  }

  /** The live turn for an agent's request, with the message streamed so far logged first, so the transcript keeps its order. */
  private async inTurn(): Promise<Live> {
    const live = this.live;
    if (!live || live.signal.aborted) throw new acp.RequestError(-32000, NO_TURN);
    await this.settleUpdates(live);
    await live.updates.endMessage();
    return live;
  }

  private async settleUpdates(live: Live): Promise<void> {
    await live.queue;
    if (live.failed) throw live.failed;
  }

  /**
   * session/prompt with the turn's message. On Cancel the agent is told (session/cancel)
   * and given a moment to return; after that the process is stopped. A process that
   * stops mid-turn ends it with its stderr.
   */
  private async prompt(link: AcpLink, live: Live, text: string): Promise<acp.StopReason> {
    const request = link.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId: link.sessionId,
      prompt: [{ type: 'text', text }],
    });
    let timer: NodeJS.Timeout | undefined;
    const cancelled = new Promise<acp.StopReason>((resolve) => {
      const onAbort = () => {
        void link.connection.agent
          .notify(acp.methods.agent.session.cancel, { sessionId: link.sessionId })
          .catch(() => {});
        timer = setTimeout(
          () => void link.stop().then(() => resolve('cancelled')),
          this.opts.cancelGraceMs ?? CANCEL_GRACE_MS,
        );
      };
      if (live.signal.aborted) onAbort();
      else live.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([request.then((r) => r.stopReason), cancelled]);
    } catch (err) {
      if (live.signal.aborted) return 'cancelled';
      throw await link.failure(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The text of the message that started the turn. */
  private messageText(turnId: string): string {
    const events = this.seam.record.events();
    const started = events.find((e) => e.type === 'turn_started' && e.turnId === turnId);
    const messageId = started?.type === 'turn_started' ? started.messageId : null;
    const message = events.find((e) => e.type === 'user_message' && e.messageId === messageId);
    return message?.type === 'user_message' ? message.text : '';
  }

  private async notStarted(turnId: string, why: string): Promise<void> {
    await this.end(turnId, 'finished', `${this.opts.agent.label} was not started: ${why}`);
  }

  /** A turn cut short: cancelled, or stopped by an error. Every call it logged gets a result first. */
  private async endOnError(live: Live, err: unknown): Promise<void> {
    await live.queue;
    if (live.signal.aborted || err instanceof CancelledError) {
      await live.updates.close(CANCELLED_CALL);
      await this.end(live.turnId, 'cancelled');
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    // A process that failed to start or speak is not kept: the next turn starts afresh.
    if (this.link?.dead === false && !(err instanceof acp.RequestError)) await this.stop();
    await live.updates.close(`not finished: the turn stopped with an error (${message})`);
    await this.seam.record.append({ type: 'error', turnId: live.turnId, message });
    await this.end(live.turnId, 'error', message);
  }

  private async end(turnId: string, reason: TurnEndReason, message?: string): Promise<void> {
    // Once the end is being logged, no request of the agent's belongs to the turn any more,
    // and a call the MCP face still runs for it (a card the agent left waiting) ends first.
    const live = this.live?.turnId === turnId ? this.live : null;
    if (live) this.live = null;
    live?.ending.abort();
    await this.opts.settled?.();
    await this.seam.record.append({ type: 'turn_ended', turnId, reason, ...(message ? { message } : {}) });
  }
}

/** Where a turn taken up after a restart stands: whether it goes on, and what the agent is told first. */
type Resumed = { goOn: boolean; note?: string };

/** What a relaunched agent is told of its request that waited across the restart, before the person's message again. */
function restartNote(what: string, outcome: string): string {
  return `[Gatehouse] The app restarted while ${what} waited for the user, and your process was restarted with it. Outcome: ${outcome}. Carry on with the user's request, which was:`;
}

/** How ACP's stop reasons end a turn: a refusal or a limit finishes it, with a line saying which. */
function endOf(stop: acp.StopReason): [TurnEndReason, string?] {
  switch (stop) {
    case 'end_turn':
      return ['finished'];
    case 'cancelled':
      return ['cancelled'];
    case 'refusal':
      return ['finished', 'the agent refused to go on with this request'];
    case 'max_tokens':
      return ['finished', 'the agent stopped at its token limit'];
    case 'max_turn_requests':
      return ['finished', 'the agent stopped at its limit of model requests for one turn'];
    default:
      return ['finished', `the agent stopped (${String(stop)})`];
  }
}
