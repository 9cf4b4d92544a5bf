/**
 * The open cards and question of the session, pinned between the transcript and the
 * composer so streamed text can never scroll them away. The waiting list's focus request
 * lands here: the card gets focus (cards are focusable regions) and scrolls into view.
 *
 * Nothing moves under the pointer: the box grows upward from the composer and the oldest
 * card sits at its bottom (column-reverse), so a newer card appears above without moving
 * it. When a card closes, the ones above slide down into its place; their key includes
 * their place, so they mount afresh and their answers are disarmed again for 0.5 s, and a
 * double click meant for the closed card cannot answer the next one.
 */
import { useEffect, useRef } from 'react';
import type { SessionState } from '../../../../shared/reducer';
import { useAppStore } from '../../store/app-store';
import { PermissionCard } from '../cards/PermissionCard';
import { QuestionCard } from '../cards/QuestionCard';

export function PinnedCards({
  sessionId,
  workspace,
  state,
}: {
  sessionId: string;
  workspace: string;
  state: SessionState;
}) {
  const box = useRef<HTMLDivElement>(null);
  const request = useAppStore((s) => s.focusRequest);
  const focusHandled = useAppStore((s) => s.focusHandled);
  const { openCards, openQuestion } = state;

  useEffect(() => {
    if (!request || request.sessionId !== sessionId) return;
    // Handled once, found or not: a card that appears later must never take the focus.
    focusHandled(request.nonce);
    const wrappers = [...(box.current?.querySelectorAll<HTMLElement>('[data-pinned]') ?? [])];
    const wrapper = wrappers.find((w) => w.dataset.pinned === request.targetId) ?? wrappers[0];
    const target = wrapper?.querySelector<HTMLElement>('[role="region"]') ?? wrapper;
    target?.focus();
    target?.scrollIntoView?.({ block: 'nearest' });
  }, [request, sessionId, focusHandled]);

  if (openCards.length === 0 && !openQuestion) return null;
  return (
    <div className="pinned" ref={box}>
      {openCards.map((card, place) => (
        <div key={`${card.cardId}@${place}`} data-pinned={card.cardId} tabIndex={-1}>
          <PermissionCard
            sessionId={sessionId}
            workspace={workspace}
            card={card}
            outcome={{ state: 'open' }}
            pinned={true}
          />
        </div>
      ))}
      {openQuestion && (
        <div key={`${openQuestion.questionId}@${openCards.length}`} data-pinned={openQuestion.questionId} tabIndex={-1}>
          <QuestionCard sessionId={sessionId} question={openQuestion} />
        </div>
      )}
    </div>
  );
}
