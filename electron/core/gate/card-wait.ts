/**
 * One card's wait for the person's answer, from the moment it can be answered to the
 * moment it cannot. The gate keeps one `CardWait` per card id (`CardWaits`), and its
 * state changes only through the transitions below:
 *
 *               expect()                  resume()                planned()
 *     (none) ───────────► expected ─────────────────► resuming ───────────► open
 *       │  │                  │                        ▲   │                 ▲ │
 *       │  └── resume() ──────┼────────────────────────┘   │                 │ │
 *       │                     │                            │                 │ │
 *       └── putUp() ──────────┼────────────────────────────┼─────────────────┘ │
 *                             │ answer()                   │ answer()          │ answer()
 *                             ▼                            ▼                   ▼
 *                      closed(answered …) ◄────────────────┴───────────────────┘
 *                       │  resume() takes an answer given before it; planned() keeps it
 *                       └─ drop() ─► closed(its answer … was dropped: why)
 *
 *     any state ── withdraw() ─────► closed(withdrawn)      (cancelled, or stale after a restart)
 *     any state ── forget(why) ────► closed(why)            (withdrawn by the runner; the turn ended)
 *     putUp() whose card never reached the log ── discard() ─► (none)
 *
 * `expected`, `resuming` and `open` take an answer; `closed` refuses one, saying why. A
 * write card from the log (expected, resuming) takes the person's edits before the gate
 * has planned it again; once open, its two sides decide whether they can be taken. A
 * transition from a state not drawn above is refused and changes nothing: answering a
 * closed card is the person's mistake (GateError); resuming an open card, planning one
 * not resuming, or dropping an answer never given is the gate's own (a plain Error).
 */
import { answersFor, type Answer, type CardBody } from '../../../shared/cards.js';
import type { CardEvent } from '../../../shared/reducer.js';
import type { Plan } from '../tools/tool-def.js';
import { editedBytes, WriteSides, type PersonAnswer } from './person-edits.js';
import { GateError } from './gate-error.js';

type CardKind = CardBody['kind'];

export type CardState =
  { name: 'expected' } | { name: 'resuming' } | { name: 'open' } | { name: 'closed'; reason: string };

export class CardWait {
  private state: CardState;
  /** The card's kind: only a write card takes edits, and a place_apply card no allow_session. */
  private readonly kind: CardKind | null;
  /** A write card's two sides, while it is open. */
  private sides: WriteSides | undefined;
  /** The answer once given: a resume that finds the card stale keeps its edits for the next card. */
  private given: PersonAnswer | undefined;
  /** Closed by the person's answer, which the call waiting on it has yet to act on. */
  private closedByAnswer = false;
  /** A call waits on this card's answer: the one that put it up, or the resume. */
  private taken: boolean;
  private resolve: (answer: PersonAnswer) => void = () => {};
  /** Settles once, with the person's answer; a card closed any other way never settles it. */
  readonly answered: Promise<PersonAnswer>;

  constructor(
    readonly cardId: string,
    start: { state: 'expected' | 'resuming'; kind: CardKind | null } | { state: 'open'; plan: Plan },
  ) {
    this.answered = new Promise<PersonAnswer>((r) => (this.resolve = r));
    this.state = { name: start.state };
    this.kind = start.state === 'open' ? start.plan.kind : start.kind;
    this.sides = start.state === 'open' ? WriteSides.of(start.plan) : undefined;
    this.taken = start.state !== 'expected';
  }

  get current(): CardState {
    return this.state;
  }

  /** Whether an answer is taken now. */
  get takesAnswer(): boolean {
    return this.state.name !== 'closed';
  }

  /** The person's answer, once given (it outlives the card's close). */
  get givenAnswer(): PersonAnswer | undefined {
    return this.given;
  }

  /** resume(): expected → resuming; closed by an answer given before the resume → the resume acts on it. */
  resume(): void {
    const canTake = this.state.name === 'expected' || (this.closedByAnswer && !this.taken);
    if (!canTake) throw new Error(`card ${this.cardId} cannot be resumed: it is ${describe(this.state)}`);
    if (this.state.name === 'expected') this.state = { name: 'resuming' };
    this.taken = true;
  }

  /** planned(): the resume found the same card; resuming → open, or an answer already given is kept. */
  planned(plan: Plan): void {
    if (this.state.name === 'resuming') {
      this.state = { name: 'open' };
      this.sides = WriteSides.of(plan);
      return;
    }
    if (this.closedByAnswer && this.taken) return;
    throw new Error(`card ${this.cardId} was not being resumed: it is ${describe(this.state)}`);
  }

  /**
   * answer(): expected, resuming or open → closed(answered …). Throws GateError, changing
   * nothing, when the card is closed or the edits cannot be taken.
   */
  answer(answer: Answer, edited?: string): void {
    if (this.state.name === 'closed')
      throw new GateError(`card ${this.cardId} is no longer open (${this.state.reason})`);
    if (this.kind && !answersFor(this.kind).includes(answer)) {
      throw new GateError(
        `a ${this.kind} card takes only ${answersFor(this.kind).join(' or ')}: it is asked every time, never allowed for the session`,
      );
    }
    const bytes = edited === undefined ? undefined : this.checkEdits(answer, edited);
    this.given = bytes ? { answer, edited: bytes } : { answer };
    this.close(`answered ${answer}${bytes ? ' with edits' : ''}`);
    this.closedByAnswer = true;
    this.resolve(this.given);
  }

  private checkEdits(answer: Answer, edited: string): Buffer {
    if (answer !== 'allow_once') {
      throw new GateError('edits go only with allow_once: an edited write is allowed once, never for the session');
    }
    const why = this.whyNotEditable();
    if (why) throw new GateError(why.startsWith('card ') ? why : `cannot allow with your edits: ${why}`);
    return editedBytes(edited);
  }

  private whyNotEditable(): string | null {
    // A write card not planned again yet takes the edits as it takes any answer.
    if (this.kind === 'write' && this.state.name !== 'open') return null;
    if (!this.sides) return `card ${this.cardId} is not an open write card; only a write can be allowed with edits`;
    return this.sides.whyNotEditable();
  }

  /** An open write card's two sides, for its preview; GateError when there are none. */
  openSides(): WriteSides {
    if (!this.takesAnswer) throw new GateError(`no open card with id ${this.cardId}`);
    if (!this.sides) throw new GateError(`card ${this.cardId} is not an open write card`);
    return this.sides;
  }

  /** An open write card's sides, or undefined (a closed card lets go of them). */
  sidesIfOpen(): WriteSides | undefined {
    return this.sides;
  }

  /** drop(): closed(answered …) → closed(its answer … was dropped: why), once the answer is found stale. */
  drop(answer: Answer, why: string): void {
    if (!this.closedByAnswer)
      throw new Error(`card ${this.cardId} has no answer to drop: it is ${describe(this.state)}`);
    this.close(`its answer ${answer} was dropped: ${why}`);
  }

  /** withdraw(): any state → closed(withdrawn); an answer arriving later is refused. */
  withdraw(): void {
    this.close('withdrawn');
  }

  /** forget(): any state → closed(why), withdrawn by someone else or left by its ended turn. */
  forget(why: string): void {
    this.close(why);
  }

  /** Whether the turn's end leaves this card behind: it takes an answer, or holds one no call will act on. */
  get leftBehind(): boolean {
    return this.takesAnswer || (this.closedByAnswer && !this.taken);
  }

  private close(reason: string): void {
    this.state = { name: 'closed', reason };
    // The map keeps a closed card for its reason: not the file's bytes.
    this.sides = undefined;
    this.closedByAnswer = false;
  }
}

/** The gate's cards, one wait each, by id. */
export class CardWaits {
  private readonly waits = new Map<string, CardWait>();

  get(cardId: string): CardWait | undefined {
    return this.waits.get(cardId);
  }

  /** expect(): (none) → expected, for a card open in the log that a resume will take up; a known card is left as it is. */
  expect(card: CardEvent): void {
    if (this.waits.has(card.cardId)) return;
    this.waits.set(card.cardId, new CardWait(card.cardId, { state: 'expected', kind: card.body.kind }));
  }

  /** resume(): (none) → resuming, or the card's own resume() when it is known. */
  resume(card: CardEvent): CardWait {
    const known = this.waits.get(card.cardId);
    if (known) {
      known.resume();
      return known;
    }
    const wait = new CardWait(card.cardId, { state: 'resuming', kind: card.body.kind });
    this.waits.set(card.cardId, wait);
    return wait;
  }

  /** putUp(): (none) → open, for a new card, before it is appended (it can be answered once in the log). */
  putUp(cardId: string, plan: Plan): CardWait {
    if (this.waits.has(cardId)) throw new Error(`card ${cardId} is up already`);
    const wait = new CardWait(cardId, { state: 'open', plan });
    this.waits.set(cardId, wait);
    return wait;
  }

  /** discard(): a card that never reached the log is unknown again. */
  discard(cardId: string): void {
    this.waits.delete(cardId);
  }

  /** answer(): the card's own, or GateError for a card never known. */
  answer(cardId: string, answer: Answer, edited?: string): void {
    const wait = this.waits.get(cardId);
    if (!wait) throw new GateError(`no open card with id ${cardId}`);
    wait.answer(answer, edited);
  }

  /** An open write card's two sides, for its preview; GateError for a card never known. */
  openSides(cardId: string): WriteSides {
    const wait = this.waits.get(cardId);
    if (!wait) throw new GateError(`no open card with id ${cardId}`);
    return wait.openSides();
  }

  /** forget(): any card, known or not, → closed(why). */
  forget(cardId: string, why: string): void {
    const wait = this.waits.get(cardId) ?? new CardWait(cardId, { state: 'expected', kind: null });
    wait.forget(why);
    this.waits.set(cardId, wait);
  }

  /** Closes every card its ended turn leaves behind, so a later answer is refused, not taken by nobody. */
  forgetAll(why: string): void {
    for (const wait of this.waits.values()) if (wait.leftBehind) wait.forget(why);
  }
}

function describe(state: CardState): string {
  return state.name === 'closed' ? `closed (${state.reason})` : state.name;
}
