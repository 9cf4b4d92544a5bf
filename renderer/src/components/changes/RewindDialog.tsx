/**
 * Rewind to a message the person sent (SPEC §12): the code, the conversation, or both,
 * each explained, then confirmed. Off while a turn runs, and the code choices are off
 * where undo is (no git) or when nothing changed since; each says why, in words.
 */
import { useId, useRef, useState } from 'react';
import type { RewindRestore } from '../../../../shared/events';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { Dialog } from '../frame/Dialog';
import { useFocusKept } from '../frame/useFocusKept';
import { messageQuote } from './restore-words';
import { pathsChangedAfter, REWIND_CHOICES, REWIND_NAMES, rewindExplanation } from './rewind-choices';
import './changes.css';

interface RewindDialogProps {
  sessionId: string;
  seq: number;
  onClose: () => void;
}

export function RewindDialog({ sessionId, seq, onClose }: RewindDialogProps) {
  const state = useAppStore((s) => s.sessions[sessionId]?.state ?? null);
  const checkpoints = useAppStore((s) => s.settings?.checkpoints);
  const transcript = state?.transcript ?? [];
  const message = transcript.find((item) => item.kind === 'user' && item.seq === seq);
  const paths = pathsChangedAfter(transcript, seq);
  const codeOff =
    checkpoints?.available === false
      ? `Undo is off here: ${checkpoints.reason}`
      : paths.length === 0
        ? 'Nothing in the workspace changed since this message.'
        : null;
  const [choice, setChoice] = useState<RewindRestore>(codeOff ? 'conversation' : 'both');
  const rewind = useCall((api, restore: RewindRestore) => api['session.rewind']({ id: sessionId, seq, restore }));
  const running = state?.turnId != null;
  const to = useRef<HTMLParagraphElement>(null);
  useFocusKept(to);
  const blocked = running || (choice === 'code' && codeOff !== null);

  const confirm = async () => {
    if (blocked || rewind.pending) return;
    if ((await rewind.run(choice)).ok) onClose();
  };

  return (
    <Dialog title="Rewind" className="rewind-dialog" onClose={onClose}>
      <p className="rewind-to" tabIndex={-1} ref={to}>
        To {message?.kind === 'user' ? messageQuote(message.text, 120) : 'this message'}
      </p>
      <RewindChoices choice={choice} onChoose={setChoice} codeOff={codeOff} paths={paths} />
      {running && <p className="changes-off">A turn is running: rewind once it ends, or cancel it first.</p>}
      {rewind.error && (
        <p className="dialog-error" role="alert">
          Could not rewind: {rewind.error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={blocked || rewind.pending} onClick={() => void confirm()}>
          {rewind.pending ? 'Rewinding…' : `Rewind ${REWIND_NAMES[choice].toLowerCase()}`}
        </button>
      </div>
    </Dialog>
  );
}

interface ChoicesProps {
  choice: RewindRestore;
  onChoose: (choice: RewindRestore) => void;
  codeOff: string | null;
  paths: readonly string[];
}

function RewindChoices({ choice, onChoose, codeOff, paths }: ChoicesProps) {
  const name = useId();
  return (
    <fieldset className="rewind-choices">
      <legend>What to rewind</legend>
      {REWIND_CHOICES.map((option) => {
        // "Both" with nothing to put back is the conversation alone, which is allowed.
        const off = option === 'code' ? codeOff : option === 'both' && paths.length > 0 ? codeOff : null;
        return (
          <label key={option} className="rewind-choice">
            <input
              type="radio"
              name={name}
              value={option}
              checked={choice === option}
              disabled={off !== null}
              onChange={() => onChoose(option)}
              data-autofocus={choice === option ? true : undefined}
            />
            <span className="rewind-choice-name">{REWIND_NAMES[option]}</span>
            <span className="rewind-choice-words">{off ?? rewindExplanation(option, paths)}</span>
          </label>
        );
      })}
    </fieldset>
  );
}
