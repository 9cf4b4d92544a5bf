import type { Answer } from '../../../../shared/cards';

/** A card's answers, and the fourth a write card offers once the person edited it (rule 11). */
export type CardChoice = Answer | 'allow_edited';

/**
 * The card's own keys (UI.md card rule 4), honoured only while the card has focus. Enter
 * is deliberately absent: a stray Enter meant for the composer must never allow. `E` is
 * "Allow with my edits", honoured only while the card offers it.
 */
const KEYS: Record<string, CardChoice> = { a: 'allow_once', s: 'allow_session', d: 'deny', e: 'allow_edited' };

export function answerForKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat: boolean;
}): CardChoice | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return null;
  return KEYS[event.key.toLowerCase()] ?? null;
}

/**
 * A key typed into a text field or an editor on the card is text, never an answer: typing
 * "safe" in the proposal's editor must not allow for the session.
 */
export function typedInField(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"]), .cm-editor') !== null
  );
}
