/**
 * The person's edits on a card (SPEC §13), as this suite models them: the text a history's
 * Edit stands for, and whether the app must refuse an answer carrying it. An edited answer
 * is taken only as allow_once, on a write card whose proposal is UTF-8 text, with at most
 * 256 KiB in UTF-8 and no NUL; anything else is refused and changes nothing. What an edited allow writes is the text as
 * UTF-8 (Buffer.from: a lone surrogate is written as U+FFFD, as the person's editor shows it).
 */
import { isUtf8 } from 'node:buffer';
import type { Answer, CardBody } from '../../shared/cards.js';
import { WRITE_MAX_BYTES } from '../../shared/limits.js';
import type { Edit } from './history.js';

/** The person's whole file for `edit`, built from the card's proposal ('' on a card with none). */
export function editedText(edit: Edit, proposal: string): string {
  switch (edit.kind) {
    case 'splice': {
      // Counted in code points, so a splice never cuts a character the proposal has in two.
      const chars = [...proposal];
      const at = edit.at % (chars.length + 1);
      chars.splice(at, edit.del, edit.text);
      return chars.join('');
    }
    case 'whole':
      return edit.text;
    case 'limit':
      // Two bytes a character: exactly WRITE_MAX_BYTES bytes, half as many characters.
      return 'é'.repeat(WRITE_MAX_BYTES / 2);
    case 'oversize':
      return `${'é'.repeat(WRITE_MAX_BYTES / 2)}x`;
    case 'nul': {
      const half = Math.floor(proposal.length / 2);
      return `${proposal.slice(0, half)}\0${proposal.slice(half)}`;
    }
  }
}

/** The bytes an edited allow writes for `text`. */
export function editedBytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/**
 * Why the app must refuse this answer with these edits, or null when it must be taken (if
 * the card is open). `proposal`: the write card's proposal, as bytes.
 */
export function editRefusal(answer: Answer, body: CardBody, text: string, proposal: Buffer | null): string | null {
  if (answer !== 'allow_once') return `edits with ${answer}`;
  if (body.kind !== 'write') return `edits on a ${body.kind} card`;
  if (proposal !== null && !isUtf8(proposal)) return 'edits to a proposal that is not UTF-8 text';
  if (text.length > WRITE_MAX_BYTES) return `edits of ${text.length} characters`;
  const bytes = editedBytes(text);
  if (bytes.length > WRITE_MAX_BYTES) return `edits of ${bytes.length} bytes`;
  if (bytes.includes(0)) return 'edits with a NUL';
  return null;
}
