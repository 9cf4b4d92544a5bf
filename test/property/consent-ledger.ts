/**
 * The model of what a person consented to in one session, folded plainly from what the
 * person did (the answers the history gave) and the cards the log shows. It does not use
 * the app's reducer: a grant exists here only because a person answered allow_session to
 * a card naming it, and it is gone once that answer was logged stale, or once the log
 * says the MCP tool it names changed.
 */
import type { Answer, CardBody, Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import { editedBytes } from './card-edit.js';

export type CardEvent = Extract<SessionEvent, { type: 'card' }>;
export type CallEvent = Extract<SessionEvent, { type: 'tool_call' }>;

/** The grant a card's "Allow for this session" means, read from what the card shows. */
export function grantShown(body: CardBody): Grant {
  switch (body.kind) {
    case 'write':
      return { kind: 'write', path: body.path };
    case 'read':
      return { kind: 'read', tool: body.tool, path: body.path };
    case 'command':
      // Exact in its flags, as the card shows them: an allow given confined never covers an unconfined run.
      return {
        kind: 'command',
        argv: [...body.argv],
        cwd: body.cwd,
        ...(body.network === true ? { network: true as const } : {}),
        ...((body.sandbox ? !body.sandbox.confined : body.unconfined === true) ? { unconfined: true as const } : {}),
      };
    case 'mcp':
      return { kind: 'mcp', tool: body.tool, args: body.argsCanonical, fingerprint: body.fingerprint };
    case 'mcp_server':
      return { kind: 'mcp_server', server: body.server, source: body.source, fingerprint: body.fingerprint };
    case 'agent_start':
      return { kind: 'agent_start', agent: body.agent, fingerprint: body.fingerprint };
    case 'agent_ask':
      return { kind: 'agent_ask', agent: body.agent, toolKind: body.toolKind, title: body.title };
    case 'place_apply':
      return { kind: 'place_apply', origin: body.origin };
  }
}

export function grantKey(g: Grant): string {
  switch (g.kind) {
    case 'command':
      return JSON.stringify([g.kind, g.argv, g.cwd, g.network === true, g.unconfined === true]);
    case 'write':
      return JSON.stringify([g.kind, '', g.path]);
    case 'read':
      return JSON.stringify([g.kind, g.tool, g.path]);
    case 'mcp':
      return JSON.stringify([g.kind, g.tool, g.args, g.fingerprint]);
    case 'mcp_server':
      return JSON.stringify([g.kind, g.server, g.source, g.fingerprint]);
    case 'agent_start':
      return JSON.stringify([g.kind, g.agent, g.fingerprint]);
    case 'agent_ask':
      return JSON.stringify([g.kind, g.agent, g.toolKind, g.title]);
    case 'place_apply':
      return JSON.stringify([g.kind, g.origin]);
  }
}

export class ConsentLedger {
  readonly cards = new Map<string, CardEvent>();
  readonly calls = new Map<string, CallEvent>();
  /** What the person answered, per card, in the order given (only answers the app accepted). */
  readonly answered = new Map<string, Answer[]>();
  /** Beside each answer in `answered`: the bytes of the person's edited file sent with it, or null. */
  readonly edits = new Map<string, (Buffer | null)[]>();
  private readonly grants = new Map<string, Grant>();
  /** The card each grant was last given on, keyed by grantKey (kept when the grant is lost): what the person saw. */
  private readonly grantCards = new Map<string, CardEvent>();
  private seen = 0;

  /** The grants the person has given and not lost, keyed by grantKey. */
  grantKeys(): Set<string> {
    return new Set(this.grants.keys());
  }

  grantList(): Grant[] {
    return [...this.grants.values()];
  }

  /** The card a grant was last given on. */
  grantCard(g: Grant): CardEvent | undefined {
    return this.grantCards.get(grantKey(g));
  }

  /** `edited`: the person's whole file, sent with the answer (SPEC §13). */
  personAnswered(cardId: string, answer: Answer, edited?: string): void {
    const list = this.answered.get(cardId) ?? [];
    list.push(answer);
    this.answered.set(cardId, list);
    const edits = this.edits.get(cardId) ?? [];
    edits.push(edited === undefined ? null : editedBytes(edited));
    this.edits.set(cardId, edits);
  }

  /** The app refused the last answer (the card was closed): it was never given. */
  personRetracted(cardId: string): void {
    this.answered.get(cardId)?.pop();
    this.edits.get(cardId)?.pop();
  }

  /** The edits the person sent with an allow_once the app took for the card (the last, if several), or null. */
  approvedEdits(cardId: string): Buffer | null {
    const answers = this.answered.get(cardId) ?? [];
    const edits = this.edits.get(cardId) ?? [];
    const i = answers.findLastIndex((a, i) => a === 'allow_once' && edits[i] != null);
    return i >= 0 ? edits[i]! : null;
  }

  /**
   * Whether the person gave the card this answer with these edits (null: none); `bytes`
   * must then be exactly what they sent.
   */
  gave(cardId: string, answer: Answer, bytes: Buffer | null): boolean {
    const answers = this.answered.get(cardId) ?? [];
    const edits = this.edits.get(cardId) ?? [];
    return answers.some((a, i) => {
      const e = edits[i] ?? null;
      return a === answer && (e === null || bytes === null ? e === bytes : e.equals(bytes));
    });
  }

  /** Folds the events not folded yet (the log only grows). */
  fold(events: readonly SessionEvent[]): void {
    for (const e of events) {
      if (e.seq <= this.seen) continue;
      this.seen = e.seq;
      this.apply(e);
    }
  }

  private apply(e: SessionEvent): void {
    if (e.type === 'card') this.cards.set(e.cardId, e);
    if (e.type === 'tool_call') this.calls.set(e.toolCallId, e);
    // A changed MCP tool voids every grant for it (SPEC §10): consent lost, never gained, so the log is believed.
    if (e.type === 'mcp_tool_changed') {
      for (const [key, g] of this.grants) if (g.kind === 'mcp' && g.tool === e.tool) this.grants.delete(key);
    }
    const card = 'cardId' in e ? this.cards.get(e.cardId) : undefined;
    if (!card) return;
    // An answer with edits never grants (SPEC §13), whatever it says.
    if (e.type === 'card_answer' && e.answer === 'allow_session' && !e.edited && this.gave(e.cardId, e.answer, null)) {
      const g = grantShown(card.body);
      this.grants.set(grantKey(g), g);
      this.grantCards.set(grantKey(g), card);
    }
    if (e.type === 'card_stale' && e.answer === 'allow_session') this.grants.delete(grantKey(grantShown(card.body)));
  }
}
