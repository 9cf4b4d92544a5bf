/**
 * The permission gate of one session. A tool call is planned, classified (free, already
 * granted, or needs a card), and only then executed. A card is a record in the log;
 * waiting for its answer is a promise held here, keyed by the card's id, and made again
 * from the log after a restart (`resume`).
 *
 * When an answer comes back the call is planned again: if a write's bytes or where a
 * path lands changed since the card went up, the answer is dropped (its allow_session
 * with it), `card_stale` is logged and a new card asks again with the diff as it is now.
 *
 * A write card may be allowed with the person's edits (person-edits.ts): their bytes replace
 * the proposal in the re-checked plan, the answer is allow_once, and a card asked again
 * keeps the edits for its editor.
 */
import { ANSWERS, describeGrant, sameGrant, type Answer, type CardBody, type Grant } from '../../../shared/cards.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { CardEvent } from '../../../shared/reducer.js';
import { StalePlanError, type ExecContext, type Plan, type ToolResult } from '../tools/tool-def.js';
import type { CardEdits, EditPreview } from '../../../shared/card-edits.js';
import { cardBody, staleReason, type DiffFn } from './card-body.js';
import type { DiffBase } from '../../../shared/diff/edit-preview.js';
import { editedBytes, OpenWrites, tellTheModel, withEdits, type PersonAnswer } from './person-edits.js';
import { classify, grantForPlan } from './classify.js';
import { CancelledError, GateError } from './gate-error.js';

export interface ToolCall {
  turnId: string;
  toolCallId: string;
  tool: string;
  args: unknown;
}

/** The part of Tools the gate needs. */
export interface Planner {
  plan(name: string, rawArgs: unknown): Promise<Plan>;
  execute(plan: Plan, exec: ExecContext): Promise<ToolResult>;
  /** Where a path argument lands when outside the workspace, and the grant that would cover it (see Tools). */
  outsideTarget?(name: string, rawArgs: unknown): Promise<{ path: string; grant: Grant } | null>;
}

/** Where cards and answers are written: the session's log and blob store. */
export interface GateRecord {
  append(payload: EventPayload): Promise<SessionEvent>;
  putBlob(bytes: Buffer): Promise<string>;
}

/**
 * The session's allow_session grants. The log is their record: a card_answer with
 * allow_session adds the card's grant, a card_stale after it drops it again (the reducer
 * does both), and `persist` keeps the result in meta.json.
 */
export interface GrantBook {
  list(): readonly Grant[];
  persist(): Promise<void>;
}

/**
 * Runs around every plan the gate executes: the checkpoints room snapshots the workspace
 * on both sides of a step that can change it. `run` executes the plan; its result (or
 * its StalePlanError) must come back unchanged.
 */
export type Bracket = (call: ToolCall, plan: Plan, run: () => Promise<ToolResult>) => Promise<ToolResult>;

export interface GateDeps {
  tools: Planner;
  bracket?: Bracket;
  record: GateRecord;
  grants: GrantBook;
  diff: DiffFn;
  newId: () => string;
}

/** A call with the planner that plans and executes it. */
type GatedCall = ToolCall & { via: Planner };

type Settled =
  | { kind: 'allowed'; plan: Plan }
  | { kind: 'result'; result: ToolResult }
  | { kind: 'retry'; plan: Plan; reason: string; edits?: CardEdits };

/** Why a card is asked again, and the person's edits it keeps. */
type Reask = { previousCardId: string; reason: string; edits?: CardEdits };

/**
 * A card's wait, registered before the card is appended: once the card is in the log it
 * can be answered, even before the gate's own code has reached the wait.
 */
interface Waiting {
  answered: Promise<PersonAnswer>;
  resolve: (answer: PersonAnswer) => void;
  /** The answer once given: a resume that finds the card stale keeps its edits for the next card. */
  given?: PersonAnswer;
}

interface OpenCard {
  card: CardEvent;
  waiting: Waiting;
}

export const DENIED = 'denied by the user';

export class Gate {
  private readonly waiting = new Map<string, Waiting>();
  private readonly closed = new Map<string, string>();
  /**
   * Waits registered by expect() for cards open in the log, kept until resume() takes
   * them: an answer that arrives before the resume is held in its Waiting.
   */
  private readonly expected = new Map<string, Waiting>();
  /**
   * Cards open in the log that a resume has not planned again yet (expected, or a resume
   * still planning): they take an answer with edits, like any answer, before openWrites
   * knows them. Only a write card is held here (expect and resume look at its kind).
   */
  private readonly resuming = new Set<string>();
  private readonly openWrites = new OpenWrites();

  constructor(private readonly deps: GateDeps) {}

  /**
   * Plans, gates and executes one tool call. Resolves to the tool result the model reads.
   * `via` plans and executes a call that is not the model's (an MCP server's start).
   */
  async run(call: ToolCall, exec: ExecContext = {}, via: Planner = this.deps.tools): Promise<ToolResult> {
    const gated = { ...call, via };
    const planned = await this.plan(gated);
    if ('result' in planned) return this.maskOutside(gated, planned.result);
    const c = classify(planned.plan, this.deps.grants.list());
    if (c.kind !== 'card') return this.execute(gated, planned.plan, exec);
    return this.askUntilSettled(gated, planned.plan, exec);
  }

  /**
   * Picks up a card that was open when the process stopped. A write re-checks its
   * digest first: if the file changed meanwhile, the old card is withdrawn and a new one
   * asks with the diff as it is now.
   */
  async resume(card: CardEvent, modelCall: ToolCall, exec: ExecContext = {}): Promise<ToolResult> {
    const call = { ...modelCall, via: this.deps.tools };
    // The card is open in the log already: it takes an answer from now on (or since expect()).
    const waiting = this.expected.get(card.cardId) ?? this.waiting.get(card.cardId) ?? this.openWait(card.cardId);
    this.expected.delete(card.cardId);
    if (card.body.kind === 'write') this.resuming.add(card.cardId);
    else this.resuming.delete(card.cardId);
    const planned = await this.plan(call);
    this.resuming.delete(card.cardId);
    if ('result' in planned) {
      this.withdraw(card.cardId);
      await this.deps.record.append({
        type: 'card_withdrawn',
        cardId: card.cardId,
        reason: planned.result.ok ? 'the call no longer applies' : planned.result.error,
      });
      return planned.result;
    }
    const reason = staleReason(card.body, planned.plan);
    if (!reason) this.openWrites.remember(card.cardId, planned.plan);
    if (reason) {
      this.withdraw(card.cardId);
      await this.deps.record.append({
        type: 'card_withdrawn',
        cardId: card.cardId,
        reason: `after the restart: ${reason}`,
      });
      // Edits given on that card since the restart (or else kept on it) stay with the person, for the next card.
      const given = waiting.given?.edited;
      const edits = given ? await this.keep(given) : card.reasked?.edits;
      if (!edits && !this.needsCard(planned.plan)) return this.execute(call, planned.plan, exec);
      return this.askUntilSettled(call, planned.plan, exec, {
        previousCardId: card.cardId,
        reason,
        ...(edits ? { edits } : {}),
      });
    }
    return this.askUntilSettled(call, planned.plan, exec, undefined, { card, waiting });
  }

  /**
   * Marks a card from the log as about to be resumed, so an answer that arrives while the
   * resume is still planning is taken rather than refused.
   */
  expect(card: CardEvent): void {
    const { cardId } = card;
    if (this.waiting.has(cardId) || this.expected.has(cardId) || this.closed.has(cardId)) return;
    this.expected.set(cardId, this.openWait(cardId));
    // Only a write card takes edits, resuming or not.
    if (card.body.kind === 'write') this.resuming.add(cardId);
  }

  /**
   * Takes a person's answer, with their version of the file when they edited a write
   * card's proposal. Throws GateError, changing nothing, when it cannot apply.
   */
  answer(cardId: string, answer: Answer, edited?: string): void {
    if (!ANSWERS.includes(answer)) {
      throw new GateError(`unknown answer "${String(answer)}": expected one of ${ANSWERS.join(', ')}`);
    }
    const waiting = this.waiting.get(cardId);
    if (!waiting) {
      const closed = this.closed.get(cardId);
      throw new GateError(closed ? `card ${cardId} is no longer open (${closed})` : `no open card with id ${cardId}`);
    }
    const bytes = edited === undefined ? undefined : this.checkEdits(cardId, answer, edited);
    this.waiting.delete(cardId);
    this.closed.set(cardId, `answered ${answer}${bytes ? ' with edits' : ''}`);
    waiting.given = bytes ? { answer, edited: bytes } : { answer };
    waiting.resolve(waiting.given);
  }

  private checkEdits(cardId: string, answer: Answer, edited: string): Buffer {
    if (answer !== 'allow_once') {
      throw new GateError('edits go only with allow_once: an edited write is allowed once, never for the session');
    }
    // A card still being resumed is not planned again yet: it takes the edits as it takes any answer.
    const why = this.resuming.has(cardId) ? null : this.openWrites.whyNotEditable(cardId);
    if (why) throw new GateError(why.startsWith('card ') ? why : `cannot allow with your edits: ${why}`);
    return editedBytes(edited);
  }

  /** A write card's diff rebuilt with the person's text in place of the proposal. */
  preview(cardId: string, text: string): Promise<EditPreview> {
    if (!this.waiting.has(cardId)) throw new GateError(`no open card with id ${cardId}`);
    return this.openWrites.preview(cardId, text, this.deps.diff);
  }

  /** An open write card's other side as text, for the window to rebuild its diff itself; see OpenWrites.base. */
  diffBase(cardId: string): DiffBase | undefined {
    return this.waiting.has(cardId) ? this.openWrites.base(cardId) : undefined;
  }

  /**
   * Forgets every card still waiting, once their turn is over: a later answer to one of
   * them is refused instead of being taken and acted on by nobody.
   */
  forgetAll(reason: string): void {
    for (const cardId of [...this.waiting.keys(), ...this.expected.keys()]) {
      this.closed.set(cardId, reason);
      this.openWrites.forget(cardId);
    }
    this.waiting.clear();
    this.expected.clear();
    this.resuming.clear();
  }

  /** Forgets one card, withdrawn by someone else (the runner, on a restart). */
  forget(cardId: string, reason: string): void {
    this.waiting.delete(cardId);
    this.openWrites.forget(cardId);
    this.expected.delete(cardId);
    this.resuming.delete(cardId);
    this.closed.set(cardId, reason);
  }

  private needsCard(plan: Plan): boolean {
    return classify(plan, this.deps.grants.list()).kind === 'card';
  }

  isWaiting(cardId: string): boolean {
    return this.waiting.has(cardId);
  }

  private async askUntilSettled(
    call: GatedCall,
    first: Plan,
    exec: ExecContext,
    firstReask?: Reask,
    existing?: OpenCard,
  ): Promise<ToolResult> {
    let open = existing ?? (await this.putUpCard(call, first, firstReask));
    for (;;) {
      const { card } = open;
      const answer = await this.waitFor(card.cardId, open.waiting, exec.signal);
      this.openWrites.forget(card.cardId);
      let settled = await this.settle(call, card, answer);
      if (settled.kind === 'allowed') settled = await this.executeAllowed(call, card, answer, settled.plan, exec);
      if (settled.kind === 'result') return settled.result;
      if (settled.kind === 'allowed') throw new Error('unreachable: an allowed plan was executed above');
      // Planned again, the call may need no card now (a path that lands inside, or one
      // granted); never when it carries the person's edits, which only a card can allow.
      if (!settled.edits && !this.needsCard(settled.plan)) return this.execute(call, settled.plan, exec);
      const { reason, edits } = settled;
      open = await this.putUpCard(call, settled.plan, {
        previousCardId: card.cardId,
        reason,
        ...(edits ? { edits } : {}),
      });
    }
  }

  private async putUpCard(call: GatedCall, plan: Plan, reasked?: Reask): Promise<OpenCard> {
    const body: CardBody = await cardBody(plan, this.deps.diff, (b) => this.deps.record.putBlob(b));
    const grant = grantForPlan(plan);
    const cardId = this.deps.newId();
    const waiting = this.openWait(cardId);
    this.openWrites.remember(cardId, plan);
    try {
      const event = await this.deps.record.append({
        type: 'card',
        turnId: call.turnId,
        toolCallId: call.toolCallId,
        cardId,
        body,
        grant,
        scope: describeGrant(grant),
        ...(reasked ? { reasked } : {}),
      });
      return { card: event as CardEvent, waiting };
    } catch (err) {
      this.waiting.delete(cardId);
      this.openWrites.forget(cardId);
      throw err;
    }
  }

  private openWait(cardId: string): Waiting {
    let resolve: (answer: PersonAnswer) => void = () => {};
    const answered = new Promise<PersonAnswer>((r) => (resolve = r));
    const waiting = { answered, resolve };
    this.waiting.set(cardId, waiting);
    return waiting;
  }

  /** Closes a card's wait without an answer; an answer arriving later is refused. */
  private withdraw(cardId: string): void {
    this.waiting.delete(cardId);
    this.openWrites.forget(cardId);
    this.closed.set(cardId, 'withdrawn');
  }

  /**
   * The answer, or CancelledError once the card is withdrawn because the turn was
   * cancelled. Cancelling wins over an answer the gate has taken but not yet acted on.
   */
  private waitFor(cardId: string, waiting: Waiting, signal?: AbortSignal): Promise<PersonAnswer> {
    return new Promise<PersonAnswer>((resolve, reject) => {
      const onAbort = () => {
        this.withdraw(cardId);
        this.deps.record
          .append({ type: 'card_withdrawn', cardId, reason: 'the turn was cancelled' })
          .then(() => reject(new CancelledError()), reject);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void waiting.answered.then((answer) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }

  /**
   * Applies an answer: deny, drop-and-reask when stale (keeping the person's edits for the
   * next card), or allow (recording a session grant; with edits, their bytes as the plan).
   */
  private async settle(call: GatedCall, card: CardEvent, person: PersonAnswer): Promise<Settled> {
    const { record } = this.deps;
    const { cardId, body } = card;
    const { answer } = person;
    if (answer === 'deny') {
      await record.append({ type: 'card_answer', cardId, answer });
      return { kind: 'result', result: { ok: false, error: DENIED } };
    }
    const edits = person.edited ? await this.keep(person.edited) : undefined;
    const planned = await this.plan(call);
    if ('result' in planned) {
      const reason = planned.result.ok ? 'the call no longer applies' : planned.result.error;
      await this.drop(cardId, answer, reason, edits);
      return { kind: 'result', result: planned.result };
    }
    const reason = staleReason(body, planned.plan);
    if (reason) {
      await this.drop(cardId, answer, reason, edits);
      return { kind: 'retry', plan: planned.plan, reason, ...(edits ? { edits } : {}) };
    }
    await record.append({ type: 'card_answer', cardId, answer, ...(edits ? { edited: edits } : {}) });
    if (answer === 'allow_session') await this.deps.grants.persist();
    return { kind: 'allowed', plan: person.edited ? withEdits(planned.plan, person.edited) : planned.plan };
  }

  /** The person's edits as a blob the log names (like a proposal), before anything is logged about them. */
  private async keep(edited: Buffer): Promise<CardEdits> {
    return { blob: await this.deps.record.putBlob(edited), bytes: edited.length };
  }

  /** Drops a stale answer: card_stale (with the edits it carried), and its grant with it. */
  private async drop(cardId: string, answer: Answer, reason: string, edits?: CardEdits): Promise<void> {
    this.closed.set(cardId, `its answer ${answer} was dropped: ${reason}`);
    await this.deps.record.append({ type: 'card_stale', cardId, answer, reason, ...(edits ? { edited: edits } : {}) });
  }

  /**
   * Executes an allowed plan. The write re-checks the file just before it lands; if it
   * changed in the few moments since the answer was checked, nothing is written, the
   * answer is dropped after all (with its grant) and the card asks again, keeping the
   * person's edits.
   */
  private async executeAllowed(
    call: GatedCall,
    card: CardEvent,
    person: PersonAnswer,
    plan: Plan,
    exec: ExecContext,
  ): Promise<Settled> {
    const { answer } = person;
    try {
      const result = await this.carryOut(call, plan, exec);
      return {
        kind: 'result',
        result: plan.kind === 'write' ? await tellTheModel(result, plan, this.deps.diff) : result,
      };
    } catch (err) {
      if (!(err instanceof StalePlanError)) return { kind: 'result', result: { ok: false, error: messageOf(err) } };
      const edits = person.edited ? await this.keep(person.edited) : undefined;
      await this.drop(card.cardId, answer, err.message, edits);
      if (answer === 'allow_session') await this.deps.grants.persist();
      const planned = await this.plan(call);
      if ('result' in planned) return { kind: 'result', result: planned.result };
      return { kind: 'retry', plan: planned.plan, reason: err.message, ...(edits ? { edits } : {}) };
    }
  }

  /**
   * A planning error about a path outside the workspace says something about a file no
   * one has allowed the agent to see (whether it exists, whether a string occurs in it).
   * Unless the session holds a grant there, the model gets one answer for every such case.
   */
  private async maskOutside(call: GatedCall, result: ToolResult): Promise<ToolResult> {
    const outside = await call.via.outsideTarget?.(call.tool, call.args);
    if (!outside) return result;
    if (this.deps.grants.list().some((g) => sameGrant(g, outside.grant))) return result;
    return {
      ok: false,
      error: `${call.tool}: ${outside.path} is outside the workspace and this call could not be prepared, so the user was not asked. Check the path and the arguments, or ask the user.`,
    };
  }

  private async plan(call: GatedCall): Promise<{ plan: Plan } | { result: ToolResult }> {
    try {
      return { plan: await call.via.plan(call.tool, call.args) };
    } catch (err) {
      return { result: { ok: false, error: messageOf(err) } };
    }
  }

  /** The one place a plan is executed, inside the bracket when there is one. */
  private carryOut(call: GatedCall, plan: Plan, exec: ExecContext): Promise<ToolResult> {
    const run = () => call.via.execute(plan, exec);
    const { turnId, toolCallId, tool, args } = call;
    return this.deps.bracket ? this.deps.bracket({ turnId, toolCallId, tool, args }, plan, run) : run();
  }

  private async execute(call: GatedCall, plan: Plan, exec: ExecContext): Promise<ToolResult> {
    try {
      return await this.carryOut(call, plan, exec);
    } catch (err) {
      if (err instanceof StalePlanError) {
        const what =
          plan.kind === 'write'
            ? 'nothing was written; read the file again and retry'
            : 'the call did not run; retry it';
        return { ok: false, error: `${err.message}; ${what}.` };
      }
      return { ok: false, error: messageOf(err) };
    }
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
