/**
 * The agent's question, pinned above the composer. Its options are buttons (armed after
 * 0.5 s like a card's, so a click meant for something else cannot answer), and a free-text
 * answer is always possible.
 */
import { useState, type FormEvent } from 'react';
import type { QuestionEvent } from '../../../../shared/reducer';
import { useCall } from '../../api/use-call';
import { useArming } from './useArming';
import './cards.css';

export function QuestionCard({ sessionId, question }: { sessionId: string; question: QuestionEvent }) {
  return <OpenQuestion key={question.questionId} sessionId={sessionId} question={question} />;
}

function OpenQuestion({ sessionId, question }: { sessionId: string; question: QuestionEvent }) {
  const armed = useArming(question.questionId);
  const [text, setText] = useState('');
  const answering = useCall((api, answer: string) =>
    api['question.answer']({ id: sessionId, questionId: question.questionId, text: answer }),
  );
  const sent = !answering.pending && answering.error === null && answering.data !== undefined;
  const busy = answering.pending || sent;

  const send = (answer: string) => {
    if (!busy) void answering.run(answer);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== '') send(text);
  };

  return (
    <section className="card card-open card-question" role="region" aria-label="Question" tabIndex={0}>
      <p className="card-question-text">{question.question}</p>
      {question.options && question.options.length > 0 && (
        <div className={`card-question-options${armed ? '' : ' card-arming'}`}>
          {question.options.map((option, i) => (
            <button
              key={i}
              type="button"
              className="card-answer card-option"
              aria-disabled={!armed || busy}
              onClick={() => {
                if (armed) send(option);
              }}
            >
              {option}
            </button>
          ))}
        </div>
      )}
      <form className="card-question-free" onSubmit={submit}>
        <label>
          <span className="card-muted">Or answer in your own words</span>
          <input type="text" value={text} onChange={(e) => setText(e.target.value)} disabled={busy} />
        </label>
        <button type="submit" className="card-secondary" disabled={busy || text.trim() === ''}>
          Answer
        </button>
      </form>
      {sent && <p className="card-status">Answer sent.</p>}
      {answering.error && (
        <p className="box-danger card-error" role="alert">
          The answer did not go through: {answering.error}
        </p>
      )}
    </section>
  );
}
