/**
 * The person's text on each open write card, kept outside the card's component: only the
 * active session's view is mounted, so switching tabs (or anything else that remounts the
 * pinned card) must not throw away what they typed. In memory only; a few cards at most.
 */
const MAX_DRAFTS = 16;
const drafts = new Map<string, string>();

export function cardDraft(cardId: string): string | undefined {
  return drafts.get(cardId);
}

export function keepCardDraft(cardId: string, text: string): void {
  drafts.delete(cardId);
  drafts.set(cardId, text);
  if (drafts.size > MAX_DRAFTS) drafts.delete(drafts.keys().next().value as string);
}
