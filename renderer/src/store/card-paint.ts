/**
 * The benchmark hook for "card event → card painted". The store calls markCardEvent when
 * the card event arrives; the card calls markCardPainted after its first frame. Both are
 * User Timing entries, so a Chromium bench reads them with
 * `performance.getEntriesByName('gatehouse:card:<cardId>')` (a measure, in ms).
 */
const EVENT = (cardId: string) => `gatehouse:card-event:${cardId}`;
const PAINTED = (cardId: string) => `gatehouse:card-painted:${cardId}`;

export function markCardEvent(cardId: string): void {
  performance.mark(EVENT(cardId));
}

/** Marks the paint after the next frame: the frame that shows the card has been produced. */
export function markCardPaintedSoon(cardId: string): () => void {
  let second = 0;
  const first = requestAnimationFrame(() => {
    second = requestAnimationFrame(() => markCardPainted(cardId));
  });
  return () => {
    cancelAnimationFrame(first);
    cancelAnimationFrame(second);
  };
}

function markCardPainted(cardId: string): void {
  performance.mark(PAINTED(cardId));
  if (performance.getEntriesByName(EVENT(cardId)).length > 0) {
    performance.measure(`gatehouse:card:${cardId}`, EVENT(cardId), PAINTED(cardId));
  }
  window.dispatchEvent(new CustomEvent('gatehouse:card-painted', { detail: { cardId, at: performance.now() } }));
}
