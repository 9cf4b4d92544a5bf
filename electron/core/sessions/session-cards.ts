/**
 * A session's cards as the contract's `card.*` calls reach them: the whole texts behind a
 * write card, its diff rebuilt with the person's edits, and the answer. Waiting on a card
 * stays the gate's; this only says which card may be edited and hands the rest on.
 */
import type { EditPreview, EditsDiff } from '../../../shared/card-edits.js';
import type { Answer } from '../../../shared/cards.js';
import type { CallResponses } from '../../../shared/contract.js';
import type { SessionEvent } from '../../../shared/events.js';
import type { SessionState } from '../../../shared/reducer.js';
import type { DiffFn } from '../gate/card-body.js';
import type { Gate } from '../gate/permission-gate.js';
import { editsDiffOf, proposalOf } from './card-texts.js';
import { SessionError } from './session-error.js';

export interface SessionCardsDeps {
  events: readonly SessionEvent[];
  getBlob: (id: string) => Promise<Buffer>;
  diff: DiffFn;
  gate: Pick<Gate, 'answer' | 'preview' | 'diffBase'>;
  state: () => SessionState;
}

export class SessionCards {
  constructor(private readonly deps: SessionCardsDeps) {}

  /**
   * The whole proposed content of one of this session's write cards, the edits it keeps,
   * and while it is open the other side of its diff, for the window's editor.
   */
  async proposal(cardId: string): Promise<CallResponses['card.proposal']> {
    const texts = await proposalOf(this.deps.events, this.deps.getBlob, cardId);
    const diffBase = this.deps.gate.diffBase(cardId);
    return diffBase ? { ...texts, diffBase } : texts;
  }

  /** For a write allowed with the person's edits: the proposal against what was written. */
  edits(cardId: string): Promise<EditsDiff> {
    return editsDiffOf(this.deps.events, this.deps.getBlob, this.deps.diff, cardId);
  }

  /** An open write card's diff rebuilt with the person's text in place of the proposal. */
  preview(cardId: string, text: string): Promise<EditPreview> {
    this.openWriteCard(cardId);
    return this.deps.gate.preview(cardId, text);
  }

  /** `edited`: the person's version of an open write card's file, allowed once (SPEC §13). */
  answer(cardId: string, answer: Answer, edited?: string): void {
    if (edited !== undefined) this.openWriteCard(cardId);
    this.deps.gate.answer(cardId, answer, edited);
  }

  private openWriteCard(cardId: string): void {
    const card = this.deps.state().openCards.find((c) => c.cardId === cardId);
    if (!card) throw new SessionError(`no open card with id ${cardId} in this session`);
    if (card.body.kind !== 'write') {
      throw new SessionError(
        `card ${cardId} asks to ${card.body.kind === 'command' ? 'run a command' : 'do something other than write'}; only a write card can be edited`,
      );
    }
  }
}
