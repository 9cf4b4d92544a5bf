/**
 * A permission card. Open and pinned above the composer it asks; in the transcript it is
 * the record of what was asked and what happened. UI.md's card rules are the spec.
 */
import { useEffect, type KeyboardEvent } from 'react';
import { answersFor } from '../../../../shared/cards';
import type { CardEvent, CardOutcome } from '../../../../shared/reducer';
import { markCardPaintedSoon } from '../../store/card-paint';
import { AnswerBar, type EditedAnswer } from './AnswerBar';
import { CardEditingContext } from './card-editing-context';
import { answerForKey, typedInField } from './card-keys';
import { cardLabel } from './card-label';
import { cardView } from './card-views';
import { reaskedNote } from './reasked-note';
import { CardRecord } from './CardRecord';
import { preloadEditorSoon } from './ProposalEditor';
import { useArming } from './useArming';
import { useCardAnswer } from './useCardAnswer';
import { useCardEditing, type CardEditing } from './useCardEditing';
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
  const answers = answersFor(card.body.kind);
  const editing = useCardEditing(sessionId, card);
  // The edited answer arms on its own, 0.5 s after each new diff of the person's text.
  const editArmed = useArming(`${card.cardId}:edit:${editing.latest?.seq ?? 0}`);
  const edits = editedAnswer(editing, armed && editArmed, (text) => void answer('allow_once', text));
  useEffect(() => markCardPaintedSoon(card.cardId), [card.cardId]);
  useEffect(() => (editing.editable ? preloadEditorSoon() : undefined), [editing.editable]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // What the person types in the editor is text, never an answer.
    if (typedInField(event.target)) return;
    const choice = answerForKey(event);
    if (!choice) return;
    if (choice === 'allow_edited') {
      if (!edits) return;
      event.preventDefault();
      if (edits.armed && edits.reason === null && !busy) edits.onAllow();
      return;
    }
    event.preventDefault();
    // A card asked every time takes no S: the key does nothing rather than an answer the core refuses.
    if (!answers.includes(choice)) return;
    // While the text is edited, only the edits or a deny answer: A and S would drop the edits.
    if (edits && choice !== 'deny') return;
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
      {card.reasked && (
        <ReaskedNote kind={card.body.kind} reason={card.reasked.reason} keptEdits={card.reasked.edits !== undefined} />
      )}
      {/* The content scrolls inside a tall card, so the answers always stay in view. */}
      <div className="card-scroll">
        <CardEditingContext.Provider value={editing}>
          <view.Body
            sessionId={sessionId}
            workspace={workspace}
            cardId={card.cardId}
            body={card.body}
            inRecord={false}
          />
        </CardEditingContext.Provider>
      </div>
      {/* Rules 7 and 8: warnings sit right before the answers, never scrolled away. */}
      {view.Warnings && <view.Warnings body={card.body} />}
      <AnswerBar
        scope={card.scope}
        answers={answers}
        armed={armed}
        busy={busy}
        onAnswer={(choice) => void answer(choice)}
        edits={edits}
      />
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

/** The fourth answer while the person's text differs from the proposal; undefined otherwise. */
function editedAnswer(editing: CardEditing, armed: boolean, allow: (text: string) => void): EditedAnswer | undefined {
  const text = editing.text;
  if (!editing.open || !editing.edited || text === null) return undefined;
  const problem = editing.current ? editing.latest?.preview.problem : undefined;
  const reason = editing.previewError
    ? `Not allowed until the diff of your version can be shown: ${editing.previewError}`
    : !editing.current
      ? 'Waiting for the diff of your version…'
      : problem
        ? `Not allowed as it is: ${problem}`
        : null;
  return { armed: armed && editing.current, reason, onAllow: () => allow(text) };
}

function ReaskedNote({
  kind,
  reason,
  keptEdits,
}: {
  kind: CardEvent['body']['kind'];
  reason: string;
  keptEdits: boolean;
}) {
  const { fixed, detail } = reaskedNote(kind, reason, keptEdits);
  return (
    <p className="card-reasked" role="note">
      <strong>{fixed}</strong>
      {detail && ` ${detail}`}
    </p>
  );
}
