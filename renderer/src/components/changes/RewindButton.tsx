/**
 * The small "Rewind to here…" action on a message the person sent. It stays focusable while
 * a turn runs, so the reason it does nothing then can be read, not only hovered.
 */
import { useId } from 'react';
import { useCheckpointActions } from './checkpoint-actions';
import './changes.css';

export function RewindButton({ seq, running }: { seq: number; running: boolean }) {
  const actions = useCheckpointActions();
  const hintId = useId();
  if (!actions) return null;
  return (
    <div className="rewind-action">
      <button
        type="button"
        className="rewind-button"
        aria-disabled={running}
        aria-describedby={running ? hintId : undefined}
        onClick={() => {
          if (!running) actions.openRewind(seq);
        }}
      >
        <span aria-hidden="true">↶ </span>Rewind to here…
      </button>
      {running && (
        <span id={hintId} className="rewind-hint">
          Rewinding waits until the running turn ends.
        </span>
      )}
    </div>
  );
}
