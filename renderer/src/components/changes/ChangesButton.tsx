/**
 * At a finished turn's end: "Changes · 3 files", which opens the turn's Changes view; or,
 * where undo is off (no git here), that it is off and why, in the place it would be offered.
 */
import { useAppStore } from '../../store/app-store';
import { filesWord } from './change-words';
import { useCheckpointActions } from './checkpoint-actions';
import './changes.css';

export function ChangesButton({ turnId, files, undone }: { turnId: string; files: number; undone: boolean }) {
  const actions = useCheckpointActions();
  const checkpoints = useAppStore((s) => s.settings?.checkpoints);
  if (checkpoints?.available === false) {
    return (
      <p className="turn-undo-off">
        Undo is off: {checkpoints.reason}. {sentence(checkpoints.fix)}
      </p>
    );
  }
  if (!actions || files === 0) return null;
  return (
    <button type="button" className="turn-changes" onClick={() => actions.openChanges(turnId)}>
      Changes · {filesWord(files)}
      {undone && ' · undone'}
    </button>
  );
}

/** Words that may start lower-case and end bare, as a sentence. */
function sentence(words: string): string {
  const text = words.trim();
  if (text === '') return '';
  return `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}
