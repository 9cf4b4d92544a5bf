/**
 * "Compact now": the person asks for the history to be summarised, optionally saying what
 * the summary must keep. Shows the wait, then "84k → 9k tokens" or the error in plain words.
 */
import { useId, useState, type FormEvent } from 'react';
import { compactTokens } from './usage-words';
import { useCompact } from './useCompact';

export function CompactNow({ sessionId, onDone }: { sessionId: string; onDone: () => void }) {
  const { busy, outcome, compact } = useCompact(sessionId, onDone);
  const [instructions, setInstructions] = useState('');
  const fieldId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) void compact(instructions);
  };

  return (
    <form className="compact-now" onSubmit={submit}>
      <label htmlFor={fieldId}>What should the summary keep? (optional)</label>
      <div className="compact-now-row">
        <textarea
          id={fieldId}
          rows={2}
          maxLength={4000}
          placeholder="e.g. the failing test names and the plan for the parser"
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          Compact now
        </button>
      </div>
      {busy ? (
        <p className="compact-now-status compacting-note" role="status">
          Writing a summary…
        </p>
      ) : outcome?.kind === 'done' ? (
        <p className="compact-now-status" role="status">
          History summarised: {compactTokens(outcome.tokensBefore)} → {compactTokens(outcome.tokensAfter)} tokens.
        </p>
      ) : outcome?.kind === 'failed' ? (
        <p className="dialog-error" role="alert">
          Could not summarise: {outcome.error}
        </p>
      ) : (
        <p className="field-help">
          The model writes a summary of the older history; from then on it sees the summary and the recent messages. The
          log keeps everything.
        </p>
      )}
    </form>
  );
}
