/**
 * At a finished turn's end: "Changes · 3 files", which opens the turn's Changes view; or,
 * where undo is off (no git here), that it is off and why, in the place it would be offered.
 */
import { filesWord } from './change-words';
import { useCheckpointActions } from './checkpoint-actions';
import './changes.css';

export function ChangesButton({ turnId, files, undone }: { turnId: string; files: number; undone: boolean }) {
  const actions = useCheckpointActions();
  if (actions?.undoOff) return <p className="turn-undo-off">Undo is off: {actions.undoOff}</p>;
  if (!actions || files === 0) return null;
  return (
    <button type="button" className="turn-changes" onClick={() => actions.openChanges(turnId)}>
      Changes · {filesWord(files)}
      {undone && ' · undone'}
    </button>
  );
}
