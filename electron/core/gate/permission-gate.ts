/**
 * The permission gate of one session. A tool call is planned, classified (free, already
 * granted, or needs a card), and only then executed. A card is a record in the log;
 * waiting for its answer is a promise held here, one `CardWait` per card id (card-wait.ts
 * draws its states), and made again from the log after a restart (`resume`).
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
import { tellTheModel, withEdits, type PersonAnswer } from './person-edits.js';
import { CardWaits, type CardWait } from './card-wait.js';
import { classify, grantForPlan } from './classify.js';
import { CancelledError, CardWithdrawal, GateError } from './gate-error.js';

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
 * A card and its wait. The wait is registered before the card is appended: once the card
 * is in the log it can be answered, even before the gate's own code has reached the wait.
 */
interface OpenCard {
  card: CardEvent;
  wait: CardWait;
}

export const DENIED = 'denied by the user';

export class Gate {
  private readonly cards = new CardWaits();

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
   * asks with the diff as it is now. `via` plans a call that is not the model's, as in `run`.
   */
  async resume(
    card: CardEvent,
    modelCall: ToolCall,
    exec: ExecContext = {},
    via: Planner = this.deps.tools,
  ): Promise<ToolResult> {
    const call = { ...modelCall, via };
    // The card is open in the log already: it takes an answer from now on (or since expect()).
    const wait = this.cards.resume(card);
    const planned = await this.plan(call);
    if ('result' in planned) {
      wait.withdraw();
      await this.deps.record.append({
        type: 'card_withdrawn',
        cardId: card.cardId,
        reason: planned.result.ok ? 'the call no longer applies' : planned.result.error,
      });
      return planned.result;
    }
    const reason = staleReason(card.body, planned.plan);
    if (reason) {
      wait.withdraw();
      await this.deps.record.append({
        type: 'card_withdrawn',
        cardId: card.cardId,
        reason: `after the restart: ${reason}`,
      });
      // Edits given on that card since the restart (or else kept on it) stay with the person, for the next card.
      const given = wait.givenAnswer?.edited;
      const edits = given ? await this.keep(given) : card.reasked?.edits;
      if (!edits && !this.needsCard(planned.plan)) return this.execute(call, planned.plan, exec);
      return this.askUntilSettled(call, planned.plan, exec, {
        previousCardId: card.cardId,
        reason,
        ...(edits ? { edits } : {}),
      });
    }
    wait.planned(planned.plan);
    return this.askUntilSettled(call, planned.plan, exec, undefined, { card, wait });
  }

  /**
   * Marks a card from the log as about to be resumed, so an answer that arrives while the
   * resume is still planning is taken rather than refused.
   */
  expect(card: CardEvent): void {
    this.cards.expect(card);
  }

  /**
   * Takes a person's answer, with their version of the file when they edited a write
   * card's proposal. Throws GateError, changing nothing, when it cannot apply.
   */
  answer(cardId: string, answer: Answer, edited?: string): void {
    if (!ANSWERS.includes(answer)) {
      throw new GateError(`unknown answer "${String(answer)}": expected one of ${ANSWERS.join(', ')}`);
    }
    this.cards.answer(cardId, answer, edited);
  }

  /** A write card's diff rebuilt with the person's text in place of the proposal. */
  preview(cardId: string, text: string): Promise<EditPreview> {
    return this.cards.openSides(cardId).preview(text, this.deps.diff);
  }

  /** An open write card's other side as text, for the window to rebuild its diff itself; see WriteSides.base. */
  diffBase(cardId: string): DiffBase | undefined {
    return this.cards.get(cardId)?.sidesIfOpen()?.base();
  }

  /**
   * Forgets every card still waiting, once their turn is over: a later answer to one of
   * them is refused instead of being taken and acted on by nobody.
   */
  forgetAll(reason: string): void {
    this.cards.forgetAll(reason);
  }

  /** Forgets one card, withdrawn by someone else (the runner, on a restart). */
  forget(cardId: string, reason: string): void {
    this.cards.forget(cardId, reason);
  }

  private needsCard(plan: Plan): boolean {
    return classify(plan, this.deps.grants.list()).kind === 'card';
  }

  isWaiting(cardId: string): boolean {
    return this.cards.get(cardId)?.takesAnswer ?? false;
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
      const { card, wait } = open;
      const answer = await this.waitFor(wait, exec.signal);
      let settled = await this.settle(call, open, answer);
      if (settled.kind === 'allowed') settled = await this.executeAllowed(call, wait, answer, settled.plan, exec);
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
    const wait = this.cards.putUp(cardId, plan);
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
      return { card: event as CardEvent, wait };
    } catch (err) {
      this.cards.discard(cardId);
      throw err;
    }
  }

  /**
   * The answer, or CancelledError once the card is withdrawn because the turn was
   * cancelled. Cancelling wins over an answer the gate has taken but not yet acted on.
   */
  private waitFor(wait: CardWait, signal?: AbortSignal): Promise<PersonAnswer> {
    return new Promise<PersonAnswer>((resolve, reject) => {
      const onAbort = () => {
        wait.withdraw();
        const reason = signal?.reason instanceof CardWithdrawal ? signal.reason.message : 'the turn was cancelled';
        this.deps.record
          .append({ type: 'card_withdrawn', cardId: wait.cardId, reason })
          .then(() => reject(new CancelledError()), reject);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void wait.answered.then((answer) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }

  /**
   * Applies an answer: deny, drop-and-reask when stale (keeping the person's edits for the
   * next card), or allow (recording a session grant; with edits, their bytes as the plan).
   */
  private async settle(call: GatedCall, { card, wait }: OpenCard, person: PersonAnswer): Promise<Settled> {
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
      await this.drop(wait, answer, reason, edits);
      return { kind: 'result', result: planned.result };
    }
    const reason = staleReason(body, planned.plan);
    if (reason) {
      await this.drop(wait, answer, reason, edits);
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
  private async drop(wait: CardWait, answer: Answer, reason: string, edits?: CardEdits): Promise<void> {
    wait.drop(answer, reason);
    const { cardId } = wait;
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
    wait: CardWait,
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
      await this.drop(wait, answer, err.message, edits);
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
