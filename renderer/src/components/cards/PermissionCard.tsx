/**
 * A permission card. Open and pinned above the composer it asks; in the transcript it is
 * the record of what was asked and what happened. UI.md's card rules are the spec.
 */
import { useEffect, type KeyboardEvent } from 'react';
import type { CardEvent, CardOutcome } from '../../../../shared/reducer';
import { markCardPaintedSoon } from '../../store/card-paint';
import { AnswerBar } from './AnswerBar';
import { answerForKey } from './card-keys';
import { cardLabel } from './card-label';
import { cardView } from './card-views';
import { reaskedNote } from './reasked-note';
import { CardRecord } from './CardRecord';
import { useArming } from './useArming';
import { useCardAnswer } from './useCardAnswer';
import './cards.css';

export interface PermissionCardProps {
  sessionId: string;
  workspace: string;
  card: CardEvent;
  outcome: CardOutcome;
  pinned: boolean;
}

export function PermissionCard(props: PermissionCardProps) {
  if (props.outcome.state === 'open' && props.pinned) return <OpenCard key={props.card.cardId} {...props} />;
  return <CardRecord {...props} />;
}

function OpenCard({ sessionId, workspace, card }: PermissionCardProps) {
  const armed = useArming(card.cardId);
  const { pending, sent, error, answer } = useCardAnswer(sessionId, card.cardId);
  const busy = pending || sent !== null;
  const view = cardView(card.body);
  useEffect(() => markCardPaintedSoon(card.cardId), [card.cardId]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const choice = answerForKey(event);
    if (!choice) return;
    event.preventDefault();
    if (armed && !busy) void answer(choice);
  };

  return (
    // Focusable but never autofocused: a card appearing must not take focus from the composer.
    <section
      className={`card card-open card-kind-${card.body.kind}`}
      role="region"
      aria-label={cardLabel(card.body, workspace)}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-card-id={card.cardId}
    >
      {card.reasked && <ReaskedNote kind={card.body.kind} reason={card.reasked.reason} />}
      {/* The content scrolls inside a tall card, so the answers always stay in view. */}
      <div className="card-scroll">
        <view.Body sessionId={sessionId} workspace={workspace} cardId={card.cardId} body={card.body} inRecord={false} />
      </div>
      {/* Rules 7 and 8: warnings sit right before the answers, never scrolled away. */}
      {view.Warnings && <view.Warnings body={card.body} />}
      <AnswerBar scope={card.scope} armed={armed} busy={busy} onAnswer={(choice) => void answer(choice)} />
      {pending && <p className="card-status">Sending…</p>}
      {sent && <p className="card-status">Answer sent; waiting for the agent.</p>}
      {error && (
        <p className="box-danger card-error" role="alert">
          The answer did not go through: {error}
        </p>
      )}
    </section>
  );
}

function ReaskedNote({ kind, reason }: { kind: CardEvent['body']['kind']; reason: string }) {
  const { fixed, detail } = reaskedNote(kind, reason);
  return (
    <p className="card-reasked" role="note">
      <strong>{fixed}</strong>
      {detail && ` ${detail}`}
    </p>
  );
}
