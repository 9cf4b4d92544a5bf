import type { Answer } from '../../../../shared/cards';

/**
 * The card's own keys (UI.md card rule 4), honoured only while the card has focus. Enter
 * is deliberately absent: a stray Enter meant for the composer must never allow.
 */
const KEYS: Record<string, Answer> = { a: 'allow_once', s: 'allow_session', d: 'deny' };

export function answerForKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat: boolean;
}): Answer | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return null;
  return KEYS[event.key.toLowerCase()] ?? null;
}
