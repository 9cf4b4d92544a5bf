/**
 * The words of a notification for a card or question. They come from the model and the
 * workspace, so they are untrusted: some notification servers read a little markup in the
 * body, and a path can hide control or bidi characters. So markup characters and
 * invisible characters are replaced, and the text is kept short.
 */
import { describeCard } from '../../../shared/cards.js';
import type { SessionEvent } from '../../../shared/events.js';

/** Long enough for a path or command line to be recognised; notifications cut the rest anyway. */
export const RAISED_BODY_MAX_CHARS = 200;

export interface RaisedText {
  title: string;
  body: string;
}

/** A notification's text for an event that asks the user something, else null. */
export function describeRaised(event: SessionEvent): RaisedText | null {
  if (event.type === 'question') return { title: 'Question', body: plain(event.question) };
  if (event.type !== 'card') return null;
  const words = describeCard(event.body);
  return { title: words.title, body: plain(words.target) };
}

// Control characters, bidi overrides and isolates, zero-width characters.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;
const MARKUP = /[<>&]/g;

function plain(text: string): string {
  const cleaned = text.replace(INVISIBLE, ' ').replace(MARKUP, (c) => ({ '<': '‹', '>': '›', '&': '+' })[c] ?? ' ');
  return cleaned.length > RAISED_BODY_MAX_CHARS ? `${cleaned.slice(0, RAISED_BODY_MAX_CHARS - 1)}…` : cleaned;
}
