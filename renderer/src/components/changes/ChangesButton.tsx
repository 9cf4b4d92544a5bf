/** At a finished turn's end: "Changes · 3 files", which opens the turn's Changes view. */
import { filesWord } from './change-words';
import { useCheckpointActions } from './checkpoint-actions';
import './changes.css';

export function ChangesButton({ turnId, files, undone }: { turnId: string; files: number; undone: boolean }) {
  const actions = useCheckpointActions();
  if (!actions || files === 0) return null;
  return (
    <button type="button" className="turn-changes" onClick={() => actions.openChanges(turnId)}>
      Changes · {filesWord(files)}
      {undone && ' · undone'}
    </button>
  );
}
