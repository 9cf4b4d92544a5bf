/**
 * The cards a call put up, inside its opened row: what each asked (the diff, the argv, the
 * path) and how it ended, oldest first. Several means the file changed and the call asked
 * again (card rule 5), so each says what became of it.
 */
import type { ToolCard } from '../../../../shared/reducer';
import { cardView } from '../cards/card-views';
import { outcomeWords } from '../cards/CardRecord';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { VisibleText } from '../cards/VisibleText';
import '../cards/cards.css';

interface ToolCardsProps {
  sessionId: string;
  workspace: string;
  cards: readonly ToolCard[];
}

export function ToolCards({ sessionId, workspace, cards }: ToolCardsProps) {
  return (
    <>
      {cards.map(({ card, outcome }, i) => {
        const view = cardView(card.body);
        const which = cards.length > 1 ? `Card ${i + 1} of ${cards.length}` : 'Card';
        return (
          <div key={card.cardId} className="card-record-details tool-row-card" data-card-id={card.cardId}>
            <p className="tool-row-label">
              {which}: {outcomeWords(card, outcome)}
            </p>
            <view.Body sessionId={sessionId} workspace={workspace} cardId={card.cardId} body={card.body} inRecord />
            <p className="card-scope">
              Scope offered: <VisibleText className="visible-prose" text={card.scope} options={PROSE_OPTIONS} />
            </p>
          </div>
        );
      })}
    </>
  );
}
