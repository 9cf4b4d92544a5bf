/**
 * What a re-asked card says at its top: one fixed sentence for its kind, and the gate's reason
 * only when it adds something (a deletion, a new path, "after the restart"), not when it is
 * the same "the file changed" again in other words.
 */
import { CARD_VIEWS, type CardKind } from './card-views';

/** Words that say only when or where it changed, which the fixed sentence already says. */
const FILLER = /\b(on disk|after the (last )?card( went up)?|since the (last )?card( went up)?)\b/g;

function gist(text: string): string {
  return text
    .toLowerCase()
    .replace(FILLER, ' ')
    .replace(/[.;:,\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A write card re-asked after an answer with edits, which it keeps in its editor (SPEC §13). */
export const KEPT_EDITS_NOTE = 'Your edits are kept; the file changed on disk, this is the diff as it is now.';

export function reaskedNote(
  kind: CardKind,
  reason: string,
  keptEdits = false,
): { fixed: string; detail: string | null } {
  const base = CARD_VIEWS[kind].reasked;
  const fixed = keptEdits ? KEPT_EDITS_NOTE : base;
  const said = gist(base.split(';')[0] ?? base);
  const detail = reason.trim();
  return { fixed, detail: detail === '' || gist(detail) === said || gist(detail) === gist(base) ? null : detail };
}
