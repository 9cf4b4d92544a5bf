/**
 * The invariants, checked after every step of a history against the model: what the
 * person consented to (one ConsentLedger per session), where every world token has been
 * (the TokenTrail), the tree and markers before and after the step, and what each
 * session's MCP server received.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Grant } from '../../shared/cards.js';
import type { SessionEvent } from '../../shared/events.js';
import { cardTruthful } from './card-check.js';
import { ConsentLedger, grantKey, type CardEvent } from './consent-ledger.js';
import { commandsConsented, landingsOf, writesConsented, type Landing } from './effect-check.js';
import { isRestoreStep, type Step } from './history.js';
import { lastSeq, type Observation, type SessionView } from './observation.js';
import { readsConsented } from './read-check.js';
import { editsKept } from './edit-check.js';
import { escapeLandings, personsGitClean, secretsKept } from './secret-check.js';
import { mcpConsented, ServerModel } from './mcp-check.js';
import { mcpLog, ServerLog } from './mcp-world.js';
import type { RestoreCall } from './restore-request.js';
import { TokenTrail } from './token-trail.js';
import { UndoCheck } from './undo-check.js';

export class Invariants {
  readonly ledgers: ConsentLedger[];
  readonly trail = new TokenTrail();
  private readonly undo: UndoCheck;
  /** Each session's test MCP server, as its own log shows it (none when the history has no MCP). */
  private readonly serverLogs: ServerLog[];
  private readonly servers: ServerModel[];

  constructor(
    private readonly dataDir: string,
    private readonly markersDir: string,
    sessions: number,
    /** The folder outside the workspaces, where an escaping command aims. */
    private readonly outside: string,
    /** Where each session's test MCP server logs what it receives; null when the workspaces name none. */
    mcpLogs: string | null,
    /** A racer swaps links in the workspace all along (race-zone.ts): undo outcomes are held to safety alone. */
    racer = false,
  ) {
    this.ledgers = Array.from({ length: sessions }, () => new ConsentLedger());
    this.serverLogs =
      mcpLogs === null ? [] : Array.from({ length: sessions }, (_, s) => new ServerLog(mcpLog(mcpLogs, s)));
    this.servers = Array.from({ length: sessions }, () => new ServerModel());
    this.undo = new UndoCheck(dataDir, racer);
  }

  /**
   * `restarted`: the host was killed during `step` and started again before `after`;
   * `restores`: the undos, redos and rewinds the person asked for in it, with the app's replies.
   */
  async check(
    step: Step,
    before: Observation,
    after: Observation,
    opts: { restarted?: boolean; restores?: readonly RestoreCall[] } = {},
  ): Promise<string[]> {
    const grantsBefore = this.ledgers.map((l) => this.grantsOf(l));
    after.sessions.forEach((v, s) => this.ledgers[s]!.fold(v.events));
    const problems: string[] = [];
    const allowedNow: CardEvent[][] = [];
    for (const [s, view] of after.sessions.entries()) {
      const fresh = view.events.filter((e) => e.seq > lastSeq(before.sessions[s]!));
      const ledger = this.ledgers[s]!;
      const blob = (id: string) => fs.readFile(path.join(this.dataDir, 'sessions', view.id, 'blobs', id));
      allowedNow.push(allowedIn(fresh, ledger));
      problems.push(...answersGiven(view.events, fresh, ledger), ...this.grantsAgree(view, ledger));
      problems.push(...(await editsKept(view.events, fresh, ledger, blob)));
      if (step.kind !== 'world') {
        for (const e of fresh) {
          if (e.type === 'card')
            problems.push(...(await cardTruthful(view.root, e, ledger, [before.tree, after.tree], blob)));
        }
      }
      const grants = [...grantsBefore[s]!, ...this.grantsOf(ledger)];
      const allowedEver = new Set(view.events.flatMap((e) => (isAllow(e) ? [e.cardId] : [])));
      problems.push(...(await readsConsented(view.root, fresh, ledger, grants, allowedEver, this.trail)));
      problems.push(...secretsKept(fresh, ledger, grants));
      problems.push(...(await personsGitClean(fresh, ledger, view.root, this.outside)));
      problems.push(
        ...mcpConsented({
          root: view.root,
          lines: (await this.serverLogs[s]?.fresh()) ?? [],
          all: view.events,
          fresh,
          ledger,
          grantsBefore: grantsBefore[s]!,
          allowed: allowedNow[s]!,
          server: this.servers[s]!,
        }),
      );
      if (step.kind === 'restart' || opts.restarted)
        problems.push(...openCardsSurvive(before.sessions[s]!, view, fresh));
    }
    problems.push(...(await this.effects(step, before, after, grantsBefore, allowedNow)));
    problems.push(...(await this.undo.check(step, before, after, opts.restores ?? [], opts.restarted === true)));
    this.trail.record(after.tree);
    return problems;
  }

  /**
   * Invariants 2 and 3 over the sessions the step could move: the one it names, both
   * after a restart (a card may be answered at once), none for the world's own step.
   */
  private async effects(
    step: Step,
    before: Observation,
    after: Observation,
    grantsBefore: Grant[][],
    allowedNow: CardEvent[][],
  ): Promise<string[]> {
    if (step.kind === 'world') return [];
    // An undo, redo or rewind moves only files it takes back, which the undo check holds it to; it starts nothing.
    if (isRestoreStep(step)) return commandsConsented(before.markers, after.markers, this.markersDir, [], []);
    const movers = 's' in step ? [step.s] : after.sessions.map((_, s) => s);
    const problems: string[] = [];
    const landings: Landing[] = [];
    for (const s of movers) {
      const view = after.sessions[s]!;
      const input = {
        root: view.root,
        before: before.tree,
        after: after.tree,
        fresh: view.events.filter((e) => e.seq > lastSeq(before.sessions[s]!)),
        ledger: this.ledgers[s]!,
        grants: grantsBefore[s]!,
        allowed: allowedNow[s]!,
        blob: (id: string) => fs.readFile(path.join(this.dataDir, 'sessions', view.id, 'blobs', id)),
      };
      landings.push(...(await landingsOf(input, problems)));
      landings.push(
        ...escapeLandings(allowedNow[s]!, input.fresh, input.ledger, input.grants, this.outside, before.tree),
      );
    }
    const allowed = movers.flatMap((s) => allowedNow[s]!);
    // Only a call uses a grant, and only a session's own step makes one.
    const grants = 's' in step ? grantsBefore[step.s]! : [];
    problems.push(...commandsConsented(before.markers, after.markers, this.markersDir, allowed, grants));
    problems.push(...writesConsented(before.tree, after.tree, landings));
    return problems;
  }

  private grantsOf(ledger: ConsentLedger): Grant[] {
    return [...ledger.grantList()];
  }

  /** Invariant 4: the app's grants, meta.json's and the model's are the same set. */
  private grantsAgree(view: SessionView, ledger: ConsentLedger): string[] {
    const model = [...ledger.grantKeys()].sort();
    const state = view.stateGrants.map(grantKey).sort();
    const meta = view.metaGrants.map(grantKey).sort();
    const problems: string[] = [];
    if (JSON.stringify(state) !== JSON.stringify(model)) {
      problems.push(`inv4: session ${view.id} holds grants ${state.join(' ')}; the person gave ${model.join(' ')}`);
    }
    if (JSON.stringify(meta) !== JSON.stringify(model)) {
      problems.push(`inv4: meta.json of ${view.id} holds grants ${meta.join(' ')}; the person gave ${model.join(' ')}`);
    }
    return problems;
  }
}

function isAllow(e: SessionEvent): e is Extract<SessionEvent, { type: 'card_answer' }> {
  return e.type === 'card_answer' && e.answer !== 'deny';
}

/** Cards whose allow was logged in `fresh` and not dropped as stale after it. */
function allowedIn(fresh: readonly SessionEvent[], ledger: ConsentLedger): CardEvent[] {
  const stale = new Set(fresh.flatMap((e) => (e.type === 'card_stale' ? [e.cardId] : [])));
  return fresh.flatMap((e) => {
    const card = isAllow(e) && !stale.has(e.cardId) ? ledger.cards.get(e.cardId) : undefined;
    return card ? [card] : [];
  });
}

/** Every logged answer is one a person gave that card, and a card is answered at most once. */
function answersGiven(all: readonly SessionEvent[], fresh: readonly SessionEvent[], ledger: ConsentLedger): string[] {
  const problems: string[] = [];
  for (const e of fresh) {
    if (e.type !== 'card_answer') continue;
    if (!ledger.answered.get(e.cardId)?.includes(e.answer)) {
      problems.push(`inv4: card ${e.cardId} logged ${e.answer}, which no person gave it`);
    }
    if (all.filter((x) => x.type === 'card_answer' && x.cardId === e.cardId).length > 1) {
      problems.push(`inv4: card ${e.cardId} was answered twice in the log`);
    }
  }
  return problems;
}

/** Invariant 5 over a restart: every card open before is open again, or closed by a logged answer or reason. */
function openCardsSurvive(before: SessionView, after: SessionView, fresh: readonly SessionEvent[]): string[] {
  const problems: string[] = [];
  for (const card of before.openCards) {
    if (after.openCards.some((c) => c.cardId === card.cardId)) continue;
    const withdrawn = fresh.some(
      (e) =>
        (e.type === 'card_withdrawn' && e.cardId === card.cardId && e.reason.trim() !== '') ||
        ((e.type === 'card_answer' || e.type === 'card_stale') && e.cardId === card.cardId) ||
        (e.type === 'turn_ended' && e.turnId === card.turnId && (e.message ?? '').trim() !== ''),
    );
    if (!withdrawn) problems.push(`inv5: card ${card.cardId} was open before the restart and is lost after it`);
  }
  return problems;
}
