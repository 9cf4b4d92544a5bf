/**
 * The whole texts behind a session's write cards, read from the log and its blobs: the
 * proposal (a card carries at most a bounded diff), the person's edits a re-asked card
 * keeps for its editor, and, once a write was allowed with edits, the diff from the
 * proposal to what was written (SPEC §13).
 */
import type { EditsDiff } from '../../../shared/card-edits.js';
import type { WriteCardBody } from '../../../shared/cards.js';
import type { CallResponses } from '../../../shared/contract.js';
import type { SessionEvent } from '../../../shared/events.js';
import type { DiffFn } from '../gate/card-body.js';
import { SessionError } from './session-error.js';

type GetBlob = (id: string) => Promise<Buffer>;

interface WriteCard {
  cardId: string;
  body: WriteCardBody;
  keptEdits?: { blob: string };
}

function writeCard(events: readonly SessionEvent[], cardId: string): WriteCard {
  const card = events.find((e) => e.type === 'card' && e.cardId === cardId);
  if (card?.type !== 'card') throw new SessionError(`no card with id ${cardId} in this session`);
  if (card.body.kind !== 'write') {
    throw new SessionError(`card ${cardId} is not a write card; only writes have a proposal`);
  }
  return { cardId, body: card.body, ...(card.reasked?.edits ? { keptEdits: card.reasked.edits } : {}) };
}

async function blob(getBlob: GetBlob, id: string, what: string): Promise<Buffer> {
  return getBlob(id).catch((err: unknown) => {
    throw new SessionError(`${what} cannot be read: ${(err as Error).message}`);
  });
}

/** The whole proposal of a write card, and the edits it keeps from the card before it. */
export async function proposalOf(
  events: readonly SessionEvent[],
  getBlob: GetBlob,
  cardId: string,
): Promise<CallResponses['card.proposal']> {
  const card = writeCard(events, cardId);
  const proposal = await blob(getBlob, card.body.proposalBlob, `the proposal of card ${cardId}`);
  const reply = { path: card.body.path, text: proposal.toString('utf8'), bytes: proposal.length };
  if (!card.keptEdits) return reply;
  const edited = await blob(getBlob, card.keptEdits.blob, `the edits kept on card ${cardId}`);
  return { ...reply, edited: { text: edited.toString('utf8'), bytes: edited.length } };
}

/** For a write allowed with edits: the proposal against what was written. */
export async function editsDiffOf(
  events: readonly SessionEvent[],
  getBlob: GetBlob,
  diff: DiffFn,
  cardId: string,
): Promise<EditsDiff> {
  const card = writeCard(events, cardId);
  const answer = events.find((e) => e.type === 'card_answer' && e.cardId === cardId);
  if (answer?.type !== 'card_answer' || !answer.edited) {
    throw new SessionError(`card ${cardId} was not allowed with your edits`);
  }
  const [proposal, edited] = await Promise.all([
    blob(getBlob, card.body.proposalBlob, `the proposal of card ${cardId}`),
    blob(getBlob, answer.edited.blob, `your edits on card ${cardId}`),
  ]);
  const d = await diff({ path: card.body.path, before: proposal, after: edited });
  return {
    path: card.body.path,
    diff: d.diff,
    diffTruncated: d.truncated,
    diffBytes: d.diffBytes,
    proposalBytes: proposal.length,
    editedBytes: edited.length,
    ...(d.note ? { diffNote: d.note } : {}),
  };
}
