/**
 * One changed file's diff, in the card's windowed diff view (only the rows in view are in
 * the DOM), or why there is none: a binary file, or a file past the first ones a view
 * carries diffs for. A cut diff says so, like a card's (UI.md card rule 6).
 */
import type { FileChangeView } from '../../../../shared/checkpoints';
import { CHANGES_DIFF_MAX_FILES, DIFF_TRUNCATED_LINES } from '../../../../shared/limits';
import { DiffView } from '../cards/DiffView';

/** `diffKey` names the file's diff in the diff view's row cache; it must differ between diffs. */
export function FileDiff({ file, diffKey }: { file: FileChangeView; diffKey: string }) {
  if (file.diff === null) {
    return (
      <p className="changes-note">
        {file.diffTruncated
          ? `No diff shown: a view carries diffs for its first ${CHANGES_DIFF_MAX_FILES} files only.`
          : 'No text diff: a binary file.'}
      </p>
    );
  }
  if (file.diff === '') return <p className="changes-note">No lines changed.</p>;
  return (
    <div className="changes-diff">
      {file.diffTruncated && (
        <p className="changes-note">
          <strong>Truncated:</strong> showing the first {DIFF_TRUNCATED_LINES} lines of the diff.
        </p>
      )}
      {/* The length too: the same file of the same turn can show another diff after an undo. */}
      <DiffView cardId={`${diffKey}:${file.diff.length}`} diff={file.diff} />
    </div>
  );
}
