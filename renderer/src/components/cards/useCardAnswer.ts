/**
 * Sends a card's answer through the one api object. A failed answer stays on the card as
 * plain words; a sent one keeps the buttons inert until the card closes, so a second
 * click cannot send a second answer. `edited` is the person's whole version of a write
 * (SPEC §13), sent with allow_once only.
 */
import type { Answer } from '../../../../shared/cards';
import { useCall } from '../../api/use-call';

export interface CardAnswerState {
  pending: boolean;
  sent: Answer | null;
  error: string | null;
}

export function useCardAnswer(sessionId: string, cardId: string) {
  const answering = useCall((api, choice: Answer, edited?: string) =>
    api['card.answer']({ id: sessionId, cardId, answer: choice, ...(edited !== undefined ? { edited } : {}) }),
  );
  const { pending, error, data, args, run } = answering;
  const sent = !pending && error === null && data !== undefined && args ? args[0] : null;
  const state: CardAnswerState = { pending, sent, error };
  return { ...state, answer: run };
}
