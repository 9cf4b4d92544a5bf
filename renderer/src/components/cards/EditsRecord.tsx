/**
 * A write allowed with the person's edits, in the record (SPEC §13): the diff of the model's
 * proposal against what was written, loaded on a click (card.edits) and shown in the same
 * windowed diff view as the card's.
 */
import { useState } from 'react';
import { DIFF_TRUNCATED_LINES } from '../../../../shared/limits';
import { useCall } from '../../api/use-call';
import { byteSize } from './byte-size';
import { DiffView } from './DiffView';
import './card-editor.css';

export function EditsRecord({ sessionId, cardId }: { sessionId: string; cardId: string }) {
  const [open, setOpen] = useState(false);
  const edits = useCall((api) => api['card.edits']({ id: sessionId, cardId }));
  const loaded = edits.data;
  const toggle = () => {
    if (!open && !loaded && !edits.pending) void edits.run();
    setOpen(!open);
  };
  return (
    <div className="card-edits-record">
      <button type="button" className="card-secondary card-edits-toggle" aria-expanded={open} onClick={toggle}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> Your edits: the model&apos;s proposal → what was written
      </button>
      {open && edits.pending && !loaded && <p className="card-note">Loading your edits…</p>}
      {open && edits.error && <p className="box-danger card-error">Could not load your edits: {edits.error}</p>}
      {open && loaded && (
        <div className="card-edits-diff">
          <p className="card-sizes">
            The model proposed {byteSize(loaded.proposalBytes)}; you wrote {byteSize(loaded.editedBytes)}.
          </p>
          {loaded.diffNote && <p className="card-note">{loaded.diffNote}</p>}
          {loaded.diffTruncated && (
            <p className="card-truncated">
              <strong>Truncated:</strong> showing the first {DIFF_TRUNCATED_LINES} lines; the whole change is{' '}
              {loaded.diffBytes.toLocaleString('en')} bytes ({byteSize(loaded.diffBytes)}).
            </p>
          )}
          {loaded.diff === '' ? (
            <p className="card-note">No difference.</p>
          ) : (
            <DiffView cardId={`${cardId}:edits`} diff={loaded.diff} />
          )}
        </div>
      )}
    </div>
  );
}
