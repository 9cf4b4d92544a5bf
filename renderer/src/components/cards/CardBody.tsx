/**
 * The body of a card by its kind; the same view serves the open card and its record
 * (`inRecord`: the record already says a command's sandbox on its own line).
 */
import type { CardEvent } from '../../../../shared/reducer';
import { CommandCard } from './CommandCard';
import { ReadCard } from './ReadCard';
import { WriteCard } from './WriteCard';

export function CardBody({
  sessionId,
  workspace,
  card,
  inRecord = false,
}: {
  sessionId: string;
  workspace: string;
  card: CardEvent;
  inRecord?: boolean;
}) {
  const body = card.body;
  switch (body.kind) {
    case 'write':
      return <WriteCard sessionId={sessionId} workspace={workspace} cardId={card.cardId} body={body} />;
    case 'command':
      return <CommandCard workspace={workspace} body={body} sandboxLine={!inRecord} />;
    case 'read':
      return <ReadCard body={body} />;
  }
}
