/**
 * A card as part of the transcript's record: one line saying what was asked and what
 * happened, with the card's content a click away. An open card here points at the pinned
 * one instead of offering buttons, so there is exactly one place to answer.
 */
import { useState } from 'react';
import type { CardEvent, CardOutcome } from '../../../../shared/reducer';
import { ANSWER_WORDS } from './AnswerBar';
import { cardVerb, cardView } from './card-views';
import { EditsRecord } from './EditsRecord';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';
import './cards.css';

interface CardRecordProps {
  sessionId: string;
  workspace: string;
  card: CardEvent;
  outcome: CardOutcome;
}

export function outcomeWords(card: CardEvent, outcome: CardOutcome): string {
  switch (outcome.state) {
    case 'open':
      return 'waiting — answer the card above the composer';
    case 'answered':
      if (outcome.answer === 'deny') return 'Denied';
      // An edited write is allowed once only (SPEC §13); the record says whose bytes landed.
      if (outcome.edited) return 'Allowed once, edited by you';
      return `Allowed ${ANSWER_WORDS[outcome.answer].slice('Allow '.length)}`;
    case 'stale':
      return `Dropped: ${cardView(card.body).staleWhat} changed (${outcome.reason})`;
    case 'withdrawn':
      return `Withdrawn (${outcome.reason})`;
  }
}

function markOf(outcome: CardOutcome): string {
  if (outcome.state === 'answered') return outcome.answer === 'deny' ? '✗' : '✓';
  return { open: '…', stale: '↺', withdrawn: '–' }[outcome.state];
}

export function CardRecord({ sessionId, workspace, card, outcome }: CardRecordProps) {
  const [open, setOpen] = useState(false);
  const tone = outcome.state === 'answered' ? (outcome.answer === 'deny' ? 'denied' : 'allowed') : outcome.state;
  const view = cardView(card.body);
  return (
    <div className={`card-record card-record-${tone}`} data-card-id={card.cardId}>
      <button type="button" className="card-record-line" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="card-record-mark" aria-hidden="true">
          {open ? '▾' : '▸'} {markOf(outcome)}
        </span>
        <span className="card-record-subject">
          <view.RecordSubject body={card.body} workspace={workspace} verb={cardVerb(card.body)} />
        </span>
        <span className="card-record-outcome">{outcomeWords(card, outcome)}</span>
      </button>
      {/* What an answered command could reach stays in the record; an open one says it on the pinned card. */}
      {view.RecordNote && outcome.state !== 'open' && <view.RecordNote body={card.body} />}
      {outcome.state === 'answered' && outcome.edited && <EditsRecord sessionId={sessionId} cardId={card.cardId} />}
      {open && (
        <div className="card-record-details">
          <view.Body sessionId={sessionId} workspace={workspace} cardId={card.cardId} body={card.body} inRecord />
          <p className="card-scope">
            Scope offered: <VisibleText className="visible-prose" text={card.scope} options={PROSE_OPTIONS} />
          </p>
        </div>
      )}
    </div>
  );
}
