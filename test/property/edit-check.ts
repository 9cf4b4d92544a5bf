/**
 * Editing on the card (SPEC §13), in the log: every answer and every stale answer the log
 * names with edits carries exactly the bytes the person sent with an answer they gave that
 * card (and an answer they gave without edits carries none: their edits are never swapped
 * for the proposal, nor the proposal for them); an answer with edits is allow_once; and a
 * card asked again keeps the edits of the answer it asks again after, byte for byte, and
 * none after a plain answer; one that replaces a card withdrawn after a restart keeps the
 * edits the person gave that card since (if the app heard them before a kill), or else
 * those that card kept. The model is told (SPEC §13): a write that landed on an allow
 * with edits says the person edited the proposal, and one that landed as proposed does not.
 * What lands on disk is held to the same bytes by the effect check (effect-check.ts).
 */
import { createHash } from 'node:crypto';
import type { CardEdits } from '../../shared/card-edits.js';
import type { SessionEvent } from '../../shared/events.js';
import type { ConsentLedger } from './consent-ledger.js';

export async function editsKept(
  all: readonly SessionEvent[],
  fresh: readonly SessionEvent[],
  ledger: ConsentLedger,
  blob: (id: string) => Promise<Buffer>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const e of fresh) {
    if (e.type === 'card_answer' || e.type === 'card_stale') {
      const what = `inv-edit: card ${e.cardId}'s ${e.type} (${e.answer}${e.edited ? ' with edits' : ''})`;
      const bytes = e.edited ? await held(e.edited, blob, what, problems) : null;
      if (e.edited && e.answer !== 'allow_once') problems.push(`${what}: edits go only with allow_once`);
      // An answer no person gave at all is invariant 4's to report; this one is about the edits.
      const answers = ledger.answered.get(e.cardId) ?? [];
      if (answers.includes(e.answer) && bytes !== undefined && !ledger.gave(e.cardId, e.answer, bytes)) {
        problems.push(`${what} does not carry the edits the person sent with it`);
      }
    }
    if (e.type === 'tool_result' && e.ok && (e.tool === 'write_file' || e.tool === 'search_replace')) {
      const edited = landedWithEdits(all, e.toolCallId);
      const told = e.output.includes(TOLD);
      if (edited !== null && edited !== told) {
        problems.push(
          `inv-edit: ${e.tool} result ${e.toolCallId} ${told ? 'says' : 'does not say'} the person edited the proposal, which they ${edited ? 'did' : 'did not'}`,
        );
      }
    }
    if (e.type === 'card' && e.reasked) {
      const wanted = keptFrom(all, e.reasked.previousCardId, ledger).map((w) => JSON.stringify(w ?? null));
      const got = JSON.stringify(e.reasked.edits ?? null);
      if (!wanted.includes(got)) {
        problems.push(
          `inv-edit: card ${e.cardId}, asked again after ${e.reasked.previousCardId}, keeps edits ${got}, not ${wanted.join(' or ')}`,
        );
      }
    }
  }
  return problems;
}

/** What a write's result says when the person's edits landed in place of the proposal. */
const TOLD = 'The user edited your proposal';

/**
 * Whether the allow a call's write landed on carried edits: its last card answered with an
 * allow that was not dropped as stale after; null when it landed on no card (a grant).
 */
function landedWithEdits(all: readonly SessionEvent[], toolCallId: string): boolean | null {
  const cards = new Set(all.flatMap((x) => (x.type === 'card' && x.toolCallId === toolCallId ? [x.cardId] : [])));
  const stale = new Set(all.flatMap((x) => (x.type === 'card_stale' ? [x.cardId] : [])));
  const answers = all.filter((x) => x.type === 'card_answer' && cards.has(x.cardId) && !stale.has(x.cardId));
  const last = answers.at(-1);
  return last?.type === 'card_answer' && last.answer !== 'deny' ? last.edited !== undefined : null;
}

/** The edits blob's bytes, checked against the size the log gives; undefined (and a problem) when unreadable. */
async function held(
  edits: CardEdits,
  blob: (id: string) => Promise<Buffer>,
  what: string,
  problems: string[],
): Promise<Buffer | undefined> {
  const bytes = await blob(edits.blob).catch(() => undefined);
  if (bytes === undefined) problems.push(`${what} names edits blob ${edits.blob}, which is not there`);
  else if (bytes.length !== edits.bytes)
    problems.push(`${what} says ${edits.bytes} bytes; its blob holds ${bytes.length}`);
  return bytes;
}

/**
 * The edits a card asked again after `previous` may keep: those its stale answer carried;
 * when it was withdrawn instead (after a restart), those the person gave it, or those it kept.
 */
function keptFrom(all: readonly SessionEvent[], previous: string, ledger: ConsentLedger): (CardEdits | undefined)[] {
  const stale = all.find((x) => x.type === 'card_stale' && x.cardId === previous);
  if (stale?.type === 'card_stale') return [stale.edited];
  const card = all.find((x) => x.type === 'card' && x.cardId === previous);
  const given = ledger.approvedEdits(previous);
  return [card?.type === 'card' ? card.reasked?.edits : undefined, ...(given ? [asKept(given)] : [])];
}

/** Bytes as the log names them: a content-addressed blob (sha256 hex) and their size. */
function asKept(bytes: Buffer): CardEdits {
  return { blob: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
