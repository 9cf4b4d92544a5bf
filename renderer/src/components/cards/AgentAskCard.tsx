/**
 * An external agent's own permission request (ACP `session/request_permission`, SPEC §14):
 * the agent's title and what it showed with it, its options as it named them, each beside
 * the standard answer that gives it. It is the agent's second signal, never the gate: its
 * writes and commands still come as the gate's own cards, and the card says so.
 */
import type { AgentAskCardBody } from '../../../../shared/cards';
import { ANSWER_WORDS, answerOfOptionKind } from './agent-words';
import type { CardViewProps } from './card-view-props';
import { VisibleLines } from './VisibleLines';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';
import './agent-cards.css';

export function AgentAskCard({ body }: CardViewProps<AgentAskCardBody>) {
  return (
    <div className="card-body card-body-agent-ask">
      <p className="card-note">
        This is <VisibleText className="visible-prose" text={body.label} options={PROSE_OPTIONS} />
        ’s own question, not the gate: its writes and commands still come to you as the gate’s cards.
      </p>
      <div className="card-subject">
        <VisibleText className="visible-prose agent-ask-title" text={body.title} options={PROSE_OPTIONS} />{' '}
        <span className="card-muted">
          (<VisibleText className="visible-prose" text={body.label} options={PROSE_OPTIONS} />
          ’s tool of kind <VisibleText text={body.toolKind} />)
        </span>
      </div>
      {body.detail !== undefined && body.detail !== '' && (
        <pre className="code-block agent-ask-detail">
          <VisibleLines text={body.detail} options={PROSE_OPTIONS} />
        </pre>
      )}
      <AgentOptions body={body} />
    </div>
  );
}

/** "Allow once answers “Yes”": the agent's words, answered with the three standard buttons. */
function AgentOptions({ body }: { body: AgentAskCardBody }) {
  if (body.options.length === 0) return null;
  return (
    <div className="card-detail agent-ask-options">
      <span>Its options, as it named them:</span>
      <ul aria-label="The agent's options">
        {body.options.map((option) => {
          const answer = answerOfOptionKind(option.kind);
          return (
            <li key={option.optionId}>
              {answer ? (
                <>
                  <strong>{ANSWER_WORDS[answer]}</strong> answers “<OptionName name={option.name} />”
                </>
              ) : (
                <>
                  “<OptionName name={option.name} />” has no button (its kind, <VisibleText text={option.kind} />, is
                  not one ACP names)
                </>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function OptionName({ name }: { name: string }) {
  return <VisibleText className="visible-prose" text={name} options={PROSE_OPTIONS} />;
}

/** The record's line: "allow Claude Code: Fetch https://…". */
export function AgentAskRecordSubject({ body, verb }: { body: AgentAskCardBody; verb: string }) {
  return (
    <>
      {verb} <VisibleText className="visible-prose" text={body.label} options={PROSE_OPTIONS} />:{' '}
      <VisibleText className="visible-prose" text={body.title} options={PROSE_OPTIONS} />
    </>
  );
}
