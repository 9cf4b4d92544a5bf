/**
 * Where the model's view of the history changed, as a quiet divider in the transcript:
 * older tool results hidden, the history summarised (the summary opens on a click), or a
 * smaller window the provider stated. The summary is the model's own output, so it is shown
 * as plain text, never as markdown or markup.
 */
import { useState, type ReactNode } from 'react';
import type { CompactionTrigger } from '../../../../shared/events';
import type { ContextEvent } from '../../../../shared/reducer';
import { compactTokens } from '../context/usage-words';

type Compaction = Extract<ContextEvent, { type: 'compaction' }>;

const TRIGGER_WORDS: Record<CompactionTrigger, string> = {
  user: 'by request',
  budget: 'the context was nearly full',
  overflow: 'the provider said the conversation was too long',
};

export function ContextDivider({ event }: { event: ContextEvent }) {
  switch (event.type) {
    case 'context_masked':
      return (
        <Divider>
          Older tool results hidden from the model ({event.results} {event.results === 1 ? 'result' : 'results'},{' '}
          {compactTokens(event.tokensBefore)} → {compactTokens(event.tokensAfter)} tokens)
        </Divider>
      );
    case 'compaction':
      return <CompactionDivider event={event} />;
    case 'context_window':
      return <Divider>The provider said this model’s window is {compactTokens(event.tokens)} tokens</Divider>;
  }
}

/** Not role="separator": a separator's content is not read out, and these words are the point. */
function Divider({ children }: { children: ReactNode }) {
  return (
    <div className="context-divider">
      <p className="context-divider-text">{children}</p>
    </div>
  );
}

function CompactionDivider({ event }: { event: Compaction }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="context-compaction">
      <div className="context-divider">
        <button type="button" className="context-divider-text" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'} </span>
          History summarised: {compactTokens(event.tokensBefore)} → {compactTokens(event.tokensAfter)} tokens ·{' '}
          {TRIGGER_WORDS[event.trigger]}
        </button>
      </div>
      {open && (
        <div className="context-summary-text">
          {event.instructions && <p className="context-summary-asked">Asked to keep: {event.instructions}</p>}
          <pre className="code-block" aria-label="Summary the model sees">
            {event.summary}
          </pre>
          <p className="context-summary-asked">
            The model sees this in place of events {event.fromSeq}–{event.toSeq}; the log keeps them.
          </p>
        </div>
      )}
    </div>
  );
}
