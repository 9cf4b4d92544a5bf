/**
 * The three answers, with the scope of "Allow for this session" in words beside it. While
 * the card arms (0.5 s) the buttons are inert, say so to assistive tech (aria-disabled),
 * and show a filling bar. Enter on an answer button does nothing: Enter alone never allows.
 *
 * Once the person edited a write's proposal, a fourth answer, "Allow with my edits", sits in
 * its own row above the three (so they do not move). It arms on its own: 0.5 s after the
 * diff of the latest text. While the text differs, Allow once and Allow for this session are
 * inert (they would write the model's proposal and drop the edits unseen): the person allows
 * their version, denies, or resets to the proposal to answer it as proposed.
 */
import { useId, type KeyboardEvent } from 'react';
import { ANSWERS, type Answer } from '../../../../shared/cards';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';
import './card-editor.css';

export const ANSWER_WORDS: Record<Answer, string> = {
  allow_once: 'Allow once',
  allow_session: 'Allow for this session',
  deny: 'Deny',
};

export const ALLOW_EDITED_WORDS = 'Allow with my edits';

/** The fourth answer, offered while the person's text differs from the proposal. */
export interface EditedAnswer {
  /** Armed: the card is, the diff shown is of the text as it is now, and it has shown for 0.5 s. */
  armed: boolean;
  /** Why it cannot be allowed now (a problem with the text, the diff not rebuilt); null when it can. */
  reason: string | null;
  onAllow: () => void;
}

interface AnswerBarProps {
  scope: string;
  /** The answers the card takes (answersFor its kind): a card asked every time has no "Allow for this session". */
  answers?: readonly Answer[];
  armed: boolean;
  busy: boolean;
  onAnswer: (answer: Answer) => void;
  edits?: EditedAnswer;
}

function swallowEnter(event: KeyboardEvent) {
  if (event.key === 'Enter') event.preventDefault();
}

export function AnswerBar({ scope, answers = ANSWERS, armed, busy, onAnswer, edits }: AnswerBarProps) {
  const perSession = answers.includes('allow_session');
  const scopeId = useId();
  const editedNoteId = useId();
  const button = (answer: Answer, extra: string, key: string) => {
    const forProposal = answer !== 'deny' && edits !== undefined;
    const inert = !armed || busy || forProposal;
    const describedBy = [answer === 'allow_session' ? scopeId : '', forProposal ? editedNoteId : ''].join(' ').trim();
    return (
      <button
        type="button"
        className={`card-answer card-answer-${extra}`}
        aria-disabled={inert}
        aria-keyshortcuts={key}
        aria-describedby={describedBy || undefined}
        onKeyDown={swallowEnter}
        onClick={() => {
          if (!inert) onAnswer(answer);
        }}
      >
        {ANSWER_WORDS[answer]}
        <kbd className="card-answer-key" aria-hidden="true">
          {key}
        </kbd>
      </button>
    );
  };
  return (
    <div className={`card-answers${armed ? '' : ' card-arming'}`}>
      {edits && <EditedRow edits={edits} busy={busy} noteId={editedNoteId} />}
      <div className="card-answer-buttons">
        {button('allow_once', 'once', 'A')}
        {perSession ? (
          <div className="card-answer-session">
            {button('allow_session', 'session', 'S')}
            <p id={scopeId} className="card-scope">
              {/* The scope quotes the argv or path, which may hold bidi or invisible characters. */}
              <VisibleText className="visible-prose" text={scope} options={PROSE_OPTIONS} />
            </p>
          </div>
        ) : (
          // Rule 3 still holds: the card says why there is no answer for the session.
          <p className="card-scope card-scope-once">
            <VisibleText className="visible-prose" text={scope} options={PROSE_OPTIONS} />
          </p>
        )}
        {button('deny', 'deny', 'D')}
      </div>
      <p className="card-keys-hint" aria-live="polite">
        {!armed
          ? 'Arming…'
          : edits
            ? 'With the card focused: E allow with your edits, D deny.'
            : perSession
              ? 'With the card focused: A allow once, S allow for this session, D deny.'
              : 'With the card focused: A allow once, D deny.'}
      </p>
    </div>
  );
}

function EditedRow({ edits, busy, noteId }: { edits: EditedAnswer; busy: boolean; noteId: string }) {
  const reasonId = useId();
  const inert = !edits.armed || busy || edits.reason !== null;
  return (
    <>
      <div className={`card-answer-edited-row${edits.armed ? '' : ' card-arming'}`}>
        <button
          type="button"
          className="card-answer card-answer-edited"
          aria-disabled={inert}
          aria-keyshortcuts="E"
          aria-describedby={reasonId}
          onKeyDown={swallowEnter}
          onClick={() => {
            if (!inert) edits.onAllow();
          }}
        >
          {ALLOW_EDITED_WORDS}
          <kbd className="card-answer-key" aria-hidden="true">
            E
          </kbd>
        </button>
        <p id={reasonId} className={`card-scope${edits.reason ? ' card-edited-reason' : ''}`}>
          {edits.reason ?? 'Writes your version, this once; the model is told exactly what you changed.'}
        </p>
      </div>
      <p id={noteId} className="card-edited-note" role="note">
        You edited the proposal: allow your version once, or deny. To allow the model&apos;s proposal as it was, reset
        to the proposal first.
      </p>
    </>
  );
}
