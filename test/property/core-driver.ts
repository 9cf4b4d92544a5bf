/**
 * A real core over a history's temp folder, driven as a window and a model would drive
 * it: the model is the puppet; answers, cancels and messages go through the host. A step
 * is acted, then the core is let run until every session rests (at a model step, on an
 * unanswered card, or idle). Used in process, and by the child a kill -9 is aimed at.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Answer } from '../../shared/cards.js';
import type { RestoreOutcome } from '../../shared/checkpoints.js';
import type { Reply } from '../../shared/contract.js';
import { createCore, type Core } from '../../electron/core/core.js';
import type { Session } from '../../electron/core/sessions/session.js';
import { isRestoreStep, type Edit, type History, type RestoreStep, type Step } from './history.js';
import { editedText, editRefusal } from './card-edit.js';
import type { CardEvent } from './consent-ledger.js';
import { readMetaGrants, type SessionView } from './observation.js';
import { PuppetChat, tagged } from './puppet-chat.js';
import type { AgentMode } from './agent-mode.js';
import { markersWritable } from './markers-sandbox.js';
import { PLANTED_SECRET, placeheld, type Layout, PLANTED_ENV_SECRET } from './world.js';
import { MCP_SERVER } from './mcp-world.js';
import { restoreRequest, type RestoreCall, type RestoreRequest } from './restore-request.js';
import { BwrapSandbox } from '../../electron/core/sandbox/bwrap-sandbox.js';
import { TEST_SERVER_FOLDER } from '../mcp-server/test-server-folder.js';

const SETTLE_LIMIT_MS = 5_000;
/** How long the sessions must rest, unchanged, after a boot before a look counts. */
export const AFTER_BOOT_MS = 30;

/**
 * Told of every answer the person gives (with their edited text, if any), before the app
 * hears it, and of answers the app refused. An answer the app must refuse (edits it may
 * not take) is never given: if the app logs it, no person gave it.
 */
export interface AnswerListener {
  given(s: number, cardId: string, answer: Answer, edited?: string): void;
  refused(s: number, cardId: string): void;
}

export class CoreDriver {
  private readonly puppet = new PuppetChat();
  readonly unexpected: string[] = [];
  /** The undos, redos and rewinds the person asked for, with the app's replies, until the check takes them. */
  readonly restores: RestoreCall[] = [];
  /** Edited answers the app refused though it must take them, until the sessions rest again to look. */
  private readonly refusedTakes: { s: number; cardId: string; problem: string }[] = [];
  /** Cards a person answered and the app took, until the app restarts. */
  private readonly answeredOpen = new Set<string>();
  private core!: Core;
  ids: string[] = [];
  roots: string[] = [];
  private calls = 0;
  private messages = 0;

  constructor(
    private readonly layout: Layout,
    private readonly answers: AnswerListener,
    /** Unique call ids across restarts of the child: each boot gets its own prefix. */
    private readonly callPrefix = 'c',
    /** The workspaces name MCP servers, whose starts a session may be busy with while a card is open. */
    private readonly mcp = false,
    /** Set when an external agent drives the sessions (agent-mode.ts) instead of the runner. */
    private readonly agent: AgentMode | null = null,
  ) {}

  /** True when session `s`'s model (or agent) waits for the history's next move. */
  private waiting(s: number): boolean {
    return this.agent ? this.agent.puppet.isWaiting(s) : this.puppet.isWaiting(s);
  }

  async boot(): Promise<void> {
    this.answeredOpen.clear();
    this.core = await createCore({
      dataDir: this.layout.data,
      // The app's own environment holds a planted secret that commands never get in theirs.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: this.layout.home,
        ANTHROPIC_API_KEY: PLANTED_SECRET,
        GITHUB_TOKEN: PLANTED_ENV_SECRET,
        DATABASE_URL: `postgres://app:${PLANTED_ENV_SECRET}@db/app`,
      },
      sandbox: markersWritable(
        new BwrapSandbox({
          dataDir: this.layout.data,
          home: this.layout.home,
          env: process.env,
          // The test MCP server's folder, as a person would add it in Settings.
          extraShown: () => [TEST_SERVER_FOLDER],
        }),
        this.layout.markers,
        this.layout.mcpLogs,
      ),
      home: this.layout.home,
      cipher: null,
      durability: 'none',
      chatFactory: () => this.puppet.client,
      ...(this.agent ? { driver: this.agent.driverFactory() } : {}),
      onUnexpected: (err) => this.unexpected.push(`unexpected error in the core: ${String(err)}`),
    });
  }

  /** First boot only: the model setting and the two sessions. */
  async openSessions(second: History['second']): Promise<void> {
    await this.core.host.call('settings.set', {
      model: { provider: 'openai-compatible', modelId: 'puppet', baseURL: 'http://127.0.0.1:9/v1' },
    });
    const dirs = [this.layout.ws, second === 'same' ? this.layout.ws : path.join(this.layout.ws, 'sub')];
    for (const dir of dirs) {
      const session = await this.core.sessions.create(dir);
      this.ids.push(session.id);
      this.roots.push(session.summary().workspace);
    }
  }

  async close(): Promise<void> {
    await this.core.dispose().catch(() => undefined);
    await this.agent?.stopAgents();
  }

  private session(s: number): Promise<Session> {
    return this.core.sessions.get(this.ids[s]!);
  }

  /** Acts one step that is not the world's (the world is changed by whoever holds the layout). */
  async act(step: Step): Promise<void> {
    if (isRestoreStep(step)) return this.restore(step);
    switch (step.kind) {
      case 'call':
        return this.modelCalls(step.s, step.tool, step.args);
      case 'finish':
        if (this.agent) this.agent.puppet.emit(step.s, { finish: true });
        else this.puppet.emit(step.s, [], 'done');
        return;
      case 'send':
        return this.send(step.s);
      case 'answer':
        return this.answer(step.s, step.pick, step.answer, step.edit);
      case 'cancel':
        await this.core.host.call('session.cancel', { id: this.ids[step.s]! });
        return;
      case 'mcpRestart':
        // Refused (ok: false) when the session has no such server now: nothing to do then.
        await this.core.host.call('mcp.restart', { id: this.ids[step.s]!, server: MCP_SERVER });
        return;
      case 'restart':
        await this.core.dispose();
        // The agents' processes go with the app, as their jails do.
        await this.agent?.stopAgents();
        await this.boot();
        if (step.answer) await this.answerAtOnce(step.answer, step.edit);
        await this.settle(AFTER_BOOT_MS);
        await this.lookAtRefusedTakes();
        return;
      case 'world':
        throw new Error('the world is changed by the caller');
    }
  }

  /**
   * The person's undo, redo or rewind, asked whether or not a turn runs (the app then
   * refuses). A session with no turn to undo or message to rewind to offers nothing to press.
   */
  private async restore(step: RestoreStep): Promise<void> {
    const request = restoreRequest(step, (await this.session(step.s)).allEvents());
    if (!request) return;
    const reply = await this.callRestore(this.ids[step.s]!, request);
    this.restores.push({ s: step.s, request, reply });
  }

  /** The host answers any call as Reply<unknown>; these three answer a RestoreOutcome. */
  private callRestore(id: string, r: RestoreRequest): Promise<Reply<RestoreOutcome>> {
    const { host } = this.core;
    const reply =
      r.kind === 'undo'
        ? host.call('session.undo', { id, turnId: r.turnId, paths: r.paths, overwrite: r.overwrite })
        : r.kind === 'redo'
          ? host.call('session.redo', { id, overwrite: r.overwrite })
          : host.call('session.rewind', { id, seq: r.seq, restore: r.restore, overwrite: r.overwrite });
    return reply as Promise<Reply<RestoreOutcome>>;
  }

  /** The model's next step is this call; an idle session is sent a message first, so the call has a turn. */
  private async modelCalls(s: number, tool: string, args: unknown): Promise<void> {
    const state = (await this.session(s)).snapshot();
    if (!this.waiting(s) && state.turnId === null && state.queue.length === 0) {
      await this.send(s);
      await this.settle();
    }
    const input = JSON.parse(placeheld(JSON.stringify(args), this.layout)) as unknown;
    if (this.agent) {
      this.agent.puppet.emit(s, this.agent.move(tool, input, this.roots[s]!));
      return;
    }
    this.puppet.emit(s, [{ toolCallId: `${this.callPrefix}${++this.calls}`, toolName: tool, input }]);
  }

  private async send(s: number): Promise<void> {
    await this.core.host.call('session.send', { id: this.ids[s]!, text: tagged(s, `message ${++this.messages}`) });
  }

  private async answer(s: number, pick: number, answer: Answer, edit?: Edit): Promise<void> {
    const session = await this.session(s);
    const open = session.snapshot().openCards;
    const all = session.allEvents().flatMap((e) => (e.type === 'card' ? [e] : []));
    // Mostly the open card; now and then one long answered, withdrawn or stale.
    const candidates = pick < 4 && open.length > 0 ? open : all;
    const card = candidates[pick % Math.max(1, candidates.length)];
    if (!card) return;
    await this.give(s, card, answer, edit);
  }

  /** Answers every session's open card straight after a boot, before the gate has taken it up again. */
  private async answerAtOnce(answer: Answer, edit?: Edit): Promise<void> {
    for (const s of this.ids.keys()) {
      const card = (await this.session(s)).snapshot().openCards[0];
      if (card) await this.give(s, card, answer, edit, true);
    }
  }

  /**
   * The person answers `card`, with their version of its file for an edit. Edits the app must
   * refuse (SPEC §13) are never given, and must change nothing, in either session (looked at
   * once both rest again; not `atOnce`, while the gate takes cards up after a boot); edits
   * it must take, on a card open and not yet answered, must be taken.
   */
  private async give(s: number, card: CardEvent, answer: Answer, edit?: Edit, atOnce = false): Promise<void> {
    const id = this.ids[s]!;
    const proposal = edit === undefined ? null : await this.proposal(s, card);
    const edited = edit === undefined ? undefined : editedText(edit, proposal?.toString('utf8') ?? '');
    const refusal = edited === undefined ? null : editRefusal(answer, card.body, edited, proposal);
    const open = (await this.session(s)).snapshot().openCards.some((c) => c.cardId === card.cardId);
    const mustTake = edited !== undefined && refusal === null && open && !this.answeredOpen.has(card.cardId);
    const was = refusal === null || atOnce ? null : await this.logged();
    // The model hears of the answer before the app does: the gate may log it at once.
    if (refusal === null) this.answers.given(s, card.cardId, answer, edited);
    const request = { id, cardId: card.cardId, answer, ...(edited === undefined ? {} : { edited }) };
    const reply = await this.core.host.call('card.answer', request);
    if (reply.ok) this.answeredOpen.add(card.cardId);
    else if (refusal === null) this.answers.refused(s, card.cardId);
    const where = `inv-edit: s${s} card ${card.cardId} (${card.body.kind}${open ? ', open' : ''})`;
    if (refusal !== null && reply.ok) this.unexpected.push(`${where} took an answer with ${refusal}`);
    if (mustTake && !reply.ok) {
      const problem = `${where} refused an allow_once with edits it must take: ${reply.error}`;
      this.refusedTakes.push({ s, cardId: card.cardId, problem });
      if (!atOnce) await this.lookAtRefusedTakes();
    }
    if (was !== null) {
      await this.settle();
      const now = await this.logged();
      if (now !== was) this.unexpected.push(`${where} refused ${refusal}, and yet changed ${was} to ${now}`);
    }
  }

  /**
   * A refused edit it must take is a problem unless the card was being withdrawn as it came
   * (after a boot, a resume that finds the file changed withdraws it and asks again), as the
   * log shows once the sessions rest.
   */
  private async lookAtRefusedTakes(): Promise<void> {
    if (this.refusedTakes.length === 0) return;
    await this.settle();
    for (const { s, cardId, problem } of this.refusedTakes.splice(0)) {
      const events = (await this.session(s)).allEvents();
      if (!events.some((e) => e.type === 'card_withdrawn' && e.cardId === cardId)) this.unexpected.push(problem);
    }
  }

  /** The proposal a write card shows; null for a card with none. */
  private async proposal(s: number, card: CardEvent): Promise<Buffer | null> {
    if (card.body.kind !== 'write') return null;
    return fs.readFile(path.join(this.layout.data, 'sessions', this.ids[s]!, 'blobs', card.body.proposalBlob));
  }

  /** Each session's last seq, open cards and grants: what a refused answer must leave as it was. */
  private async logged(): Promise<string> {
    const out: string[] = [];
    for (const s of this.ids.keys()) {
      const st = (await this.session(s)).snapshot();
      const cards = st.openCards.map((c) => c.cardId).join(',');
      out.push(`s${s}: seq ${st.lastSeq}, open [${cards}], ${JSON.stringify(st.grants)}`);
    }
    return out.join('; ');
  }

  /**
   * Lets the core run until every session rests; else says why not. Resting is exact
   * except just after a boot, when a resumed card looks open while the gate still plans
   * it again: then the rest must also hold, with no new event, for `stableMs`.
   */
  async settle(stableMs = 0): Promise<string | null> {
    // An agent's process starts (and initializes) within a step: more time to come to rest.
    const deadline = Date.now() + SETTLE_LIMIT_MS * (this.agent ? 4 : 1);
    let signature: string | null = null;
    let since = 0;
    for (;;) {
      const now = await this.restingSignature();
      if (now !== signature) [signature, since] = [now, Date.now()];
      if (signature !== null && Date.now() - since >= stableMs) return null;
      if (Date.now() > deadline) return `liveness: a session never came to rest (${await this.describeStates()})`;
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  /** Each session's last seq when all rest, else null. */
  private async restingSignature(): Promise<string | null> {
    const seqs: number[] = [];
    for (const s of this.ids.keys()) {
      const session = await this.session(s);
      const st = session.snapshot();
      const resting =
        this.waiting(s) ||
        st.openQuestion !== null ||
        (await this.waitsOnCard(session)) ||
        // A queued message starting logs user_message, then turn_started: not idle in between.
        (st.turnId === null && st.queue.length === 0 && session.allEvents().at(-1)?.type !== 'user_message');
      if (!resting) return null;
      seqs.push(st.lastSeq);
    }
    return seqs.join(',');
  }

  /**
   * Whether the session waits for the person to answer a card. Two can be open in one turn:
   * after a restart, a server's start card goes up beside the resumed card, and the turn
   * waits on the start card first (an answer to the other is held until then). Once the
   * start is answered, the session is busy until the server has started and the gate has
   * taken up the other card, and acted on it if it was answered too.
   */
  private async waitsOnCard(session: Session): Promise<boolean> {
    const open = session.snapshot().openCards;
    const unanswered = open.filter((c) => !this.answeredOpen.has(c.cardId));
    if (unanswered.length === 0) return false;
    if (!this.mcp) return true;
    if (unanswered.some((c) => c.body.kind === 'mcp_server')) return true;
    if (unanswered.length < open.length) return false;
    const overview = await session.mcp.list().catch(() => null);
    return !(overview?.servers ?? []).some((server) => server.state === 'starting' || server.state === 'asking');
  }

  private async describeStates(): Promise<string> {
    const out: string[] = [];
    for (const s of this.ids.keys()) {
      const st = (await this.session(s)).snapshot();
      out.push(`s${s}: ${st.status}, turn ${st.turnId}, ${st.openCards.length} open cards, queue ${st.queue.length}`);
    }
    return out.join('; ');
  }

  async views(): Promise<SessionView[]> {
    const views: SessionView[] = [];
    for (const [s, id] of this.ids.entries()) {
      const session = await this.session(s);
      const st = session.snapshot();
      // Copied at once: the state is folded in place, and meta.json is read after an await.
      const held = { events: [...session.allEvents()], stateGrants: [...st.grants], openCards: [...st.openCards] };
      views.push({ id, root: this.roots[s]!, ...held, metaGrants: await readMetaGrants(this.layout.data, id) });
    }
    return views;
  }
}
