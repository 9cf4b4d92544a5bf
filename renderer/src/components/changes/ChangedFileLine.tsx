/**
 * A changed file as one line that opens its diff: "▸ + src/a.ts  added, 1.2 KiB". The mark
 * says the change without colour, and the path shows what could hide in it (card rule 2).
 */
import type { ChangedFile } from '../../../../shared/checkpoints';
import { VisibleText } from '../cards/VisibleText';
import { CHANGE_MARKS, changeDetail } from './change-words';

interface ChangedFileLineProps {
  file: ChangedFile;
  open: boolean;
  onToggle: () => void;
}

export function ChangedFileLine({ file, open, onToggle }: ChangedFileLineProps) {
  return (
    <button
      type="button"
      className={`changed-file-line changed-file-${file.change}`}
      aria-expanded={open}
      onClick={onToggle}
    >
      <span className="changed-file-mark" aria-hidden="true">
        {open ? '▾' : '▸'} {CHANGE_MARKS[file.change]}
      </span>
      <VisibleText className="changed-file-path" text={file.path} />
      <span className="changed-file-detail">{changeDetail(file)}</span>
    </button>
  );
}
