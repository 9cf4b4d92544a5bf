/**
 * The three answers, with the scope of "Allow for this session" in words beside it. While
 * the card arms (0.5 s) the buttons are inert, say so to assistive tech (aria-disabled),
 * and show a filling bar. Enter on an answer button does nothing: Enter alone never allows.
 */
import { useId, type KeyboardEvent } from 'react';
import type { Answer } from '../../../../shared/cards';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';

export const ANSWER_WORDS: Record<Answer, string> = {
  allow_once: 'Allow once',
  allow_session: 'Allow for this session',
  deny: 'Deny',
};

interface AnswerBarProps {
  scope: string;
  armed: boolean;
  busy: boolean;
  onAnswer: (answer: Answer) => void;
}

function swallowEnter(event: KeyboardEvent) {
  if (event.key === 'Enter') event.preventDefault();
}

export function AnswerBar({ scope, armed, busy, onAnswer }: AnswerBarProps) {
  const scopeId = useId();
  const inert = !armed || busy;
  const button = (answer: Answer, extra: string, key: string) => (
    <button
      type="button"
      className={`card-answer card-answer-${extra}`}
      aria-disabled={inert}
      aria-keyshortcuts={key}
      aria-describedby={answer === 'allow_session' ? scopeId : undefined}
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
  return (
    <div className={`card-answers${armed ? '' : ' card-arming'}`}>
      <div className="card-answer-buttons">
        {button('allow_once', 'once', 'A')}
        <div className="card-answer-session">
          {button('allow_session', 'session', 'S')}
          <p id={scopeId} className="card-scope">
            {/* The scope quotes the argv or path, which may hold bidi or invisible characters. */}
            <VisibleText className="visible-prose" text={scope} options={PROSE_OPTIONS} />
          </p>
        </div>
        {button('deny', 'deny', 'D')}
      </div>
      <p className="card-keys-hint" aria-live="polite">
        {armed ? 'With the card focused: A allow once, S allow for this session, D deny.' : 'Arming…'}
      </p>
    </div>
  );
}
