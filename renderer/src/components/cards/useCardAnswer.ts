/**
 * Sends a card's answer through the one api object. A failed answer stays on the card as
 * plain words; a sent one keeps the buttons inert until the card closes, so a second
 * click cannot send a second answer.
 */
import { useCallback, useState } from 'react';
import type { Answer } from '../../../../shared/cards';
import { useApi } from '../../api/api-context';

export interface CardAnswerState {
  pending: boolean;
  sent: Answer | null;
  error: string | null;
}

export function useCardAnswer(sessionId: string, cardId: string) {
  const api = useApi();
  const [state, setState] = useState<CardAnswerState>({ pending: false, sent: null, error: null });
  const answer = useCallback(
    async (choice: Answer) => {
      setState({ pending: true, sent: null, error: null });
      try {
        const reply = await api['card.answer']({ id: sessionId, cardId, answer: choice });
        setState(
          reply.ok ? { pending: false, sent: choice, error: null } : { pending: false, sent: null, error: reply.error },
        );
      } catch (error) {
        setState({ pending: false, sent: null, error: error instanceof Error ? error.message : String(error) });
      }
    },
    [api, sessionId, cardId],
  );
  return { ...state, answer };
}
