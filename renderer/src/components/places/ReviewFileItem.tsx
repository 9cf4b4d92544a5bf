/**
 * One file of a place's review: a tick (only a file Apply can write takes one), its line
 * opening its diff, and its state against the person's folder. A conflict shows both sides,
 * the session's and the person's, and the two merged with conflict markers, to read: there
 * is no button that writes it (SPEC §15: a file changed since is never overwritten).
 */
import type { PlaceFileChange } from '../../../../shared/places';
import { DiffView } from '../cards/DiffView';
import { VisibleText } from '../cards/VisibleText';
import { CODE_OPTIONS } from '../cards/visible-text';
import { ChangedFileLine } from '../changes/ChangedFileLine';
import { FileDiff } from '../changes/FileDiff';
import { STATUS_WORDS, untickableWhy } from './place-words';

/** A merged text past this many lines shows its start and says so. */
const MERGED_LINES_SHOWN = 2000;

interface ReviewFileItemProps {
  file: PlaceFileChange;
  /** Names the file's diffs in the diff view's row cache (the review's id and the path). */
  diffKey: string;
  open: boolean;
  onToggle: () => void;
  ticked: boolean;
  onTick: (ticked: boolean) => void;
  /** Ticks cannot change now (an apply is on its way). */
  busy: boolean;
}

export function ReviewFileItem({ file, diffKey, open, onToggle, ticked, onTick, busy }: ReviewFileItemProps) {
  const why = untickableWhy(file);
  return (
    <li className={`changes-file review-file review-file-${file.status}`}>
      <div className="changes-file-head">
        <input
          type="checkbox"
          className="review-tick"
          aria-label={`Apply ${file.path}`}
          checked={why === null && ticked}
          disabled={why !== null || busy}
          onChange={(e) => onTick(e.target.checked)}
        />
        <ChangedFileLine file={file} open={open} onToggle={onToggle} />
        <span className={`review-status review-status-${file.status}`}>
          {file.status === 'conflict' && (
            <span className="warning-mark" aria-hidden="true">
              ⚠{' '}
            </span>
          )}
          {STATUS_WORDS[file.status]}
        </span>
      </div>
      {file.status === 'conflict' && <p className="review-why">{why}</p>}
      {open &&
        (file.status === 'conflict' ? (
          <ConflictView file={file} diffKey={diffKey} />
        ) : (
          <FileDiff file={file} diffKey={diffKey} />
        ))}
    </li>
  );
}

function ConflictView({ file, diffKey }: { file: PlaceFileChange; diffKey: string }) {
  return (
    <div className="review-conflict">
      <h3 className="review-side">The session’s change</h3>
      <FileDiff file={file} diffKey={diffKey} />
      <h3 className="review-side">Your change since the session began</h3>
      {file.theirsDiff ? (
        <div className="changes-diff">
          <DiffView cardId={`${diffKey}:theirs:${file.theirsDiff.length}`} diff={file.theirsDiff} />
        </div>
      ) : (
        <p className="changes-note">
          {file.theirsDiff === null ? 'No text diff: a binary file.' : 'Your side was not given.'}
        </p>
      )}
      {file.merged !== undefined && <MergedText merged={file.merged} />}
    </div>
  );
}

/** A conflict marker line of a three-way merge: `<<<<<<<`, `|||||||`, `=======` or `>>>>>>>`. */
const MARKER = /^(<{7}|\|{7}|={7}|>{7})( |$)/;

/** The three-way merge with its markers, as text to read: nothing here is ever written. */
function MergedText({ merged }: { merged: string }) {
  const lines = merged.endsWith('\n') ? merged.slice(0, -1).split('\n') : merged.split('\n');
  const shown = lines.slice(0, MERGED_LINES_SHOWN);
  return (
    <>
      <h3 className="review-side">Both merged, with conflict markers (to read; Gatehouse never writes this)</h3>
      {lines.length > MERGED_LINES_SHOWN && (
        <p className="changes-note">
          <strong>Truncated:</strong> showing the first {MERGED_LINES_SHOWN} of {lines.length} lines.
        </p>
      )}
      <pre className="code-block review-merged" tabIndex={0} aria-label="Merged text with conflict markers">
        {/* Line by line, so each line's invisible characters are marked and its end is a real one. */}
        {shown.map((line, i) => (
          <span key={i} className={MARKER.test(line) ? 'review-merged-marker' : undefined}>
            <VisibleText text={line} options={CODE_OPTIONS} />
            {'\n'}
          </span>
        ))}
      </pre>
    </>
  );
}
