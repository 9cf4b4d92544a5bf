/**
 * What every card kind's view is given. Its own file, so the views (WriteCard, ReadCard, …)
 * and card-views.tsx, which maps each kind to its view, do not import each other.
 */
import type { CardBody } from '../../../../shared/cards';

export interface CardViewProps<B extends CardBody> {
  sessionId: string;
  workspace: string;
  cardId: string;
  body: B;
  /** Shown expanded in the transcript's record, where the record says the sandbox on its own line. */
  inRecord: boolean;
}
