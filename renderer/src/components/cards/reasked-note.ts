/**
 * What a re-asked card says at its top: one fixed sentence for its kind, and the gate's reason
 * only when it adds something (a deletion, a new path, "after the restart"), not when it is
 * the same "the file changed" again in other words.
 */
import type { CardEvent } from '../../../../shared/reducer';

type Kind = CardEvent['body']['kind'];

const FIXED: Record<Kind, string> = {
  write: 'The file changed after the last card; this is the diff as it is now.',
  command: 'Something changed after the last card; this is the command as it is now.',
  read: 'The path changed after the last card; this is the read as it is now.',
};

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

export function reaskedNote(kind: Kind, reason: string): { fixed: string; detail: string | null } {
  const fixed = FIXED[kind];
  const said = gist(fixed.split(';')[0] ?? fixed);
  const detail = reason.trim();
  return { fixed, detail: detail === '' || gist(detail) === said || gist(detail) === gist(fixed) ? null : detail };
}
