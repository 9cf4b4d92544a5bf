/**
 * The review screen's four ways on (SPEC §15): Apply to my folder, Apply as a commit on my
 * branch, Keep the branch, Discard; each off with its reason said next to it in words.
 */
import type { PlaceReview } from '../../../../shared/places';
import { filesWord } from '../changes/change-words';
import type { ConfirmKind } from './ReviewConfirm';

interface ReviewActionsProps {
  review: PlaceReview;
  /** How many files are ready to apply, ticked or not. */
  ready: number;
  ticked: number;
  busy: boolean;
  onApply: () => void;
  onConfirm: (kind: ConfirmKind) => void;
}

/** Why Apply as a commit cannot be used, or null. */
export function commitOff(review: PlaceReview): string | null {
  if (review.commit === null) return 'A copy of a folder that is not a repository has no branch to commit on.';
  if ('why' in review.commit) return review.commit.why;
  return null;
}

export function ReviewActions({ review, ready, ticked, busy, onApply, onConfirm }: ReviewActionsProps) {
  const nothing = ready === 0 ? 'Nothing left to apply.' : ticked === 0 ? 'Tick a file that is ready to apply.' : null;
  const noCommit = commitOff(review);
  const worktree = review.place.kind === 'worktree';
  return (
    <div className="changes-actions review-actions">
      <div className="changes-buttons">
        <button type="button" className="primary" disabled={busy || nothing !== null} onClick={onApply}>
          Apply to my folder{ticked > 0 ? ` (${filesWord(ticked)})` : ''}
        </button>
        <button
          type="button"
          disabled={busy || nothing !== null || noCommit !== null}
          aria-describedby={noCommit !== null ? 'review-commit-off' : undefined}
          onClick={() => onConfirm('commit')}
        >
          Apply as a commit on my branch…
        </button>
        {worktree && (
          <button type="button" disabled={busy} onClick={() => onConfirm('keep')}>
            Keep the branch…
          </button>
        )}
        <button type="button" className="review-discard" disabled={busy} onClick={() => onConfirm('discard')}>
          Discard…
        </button>
      </div>
      {nothing !== null && <p className="field-help">{nothing}</p>}
      {noCommit !== null && (
        <p className="field-help" id="review-commit-off">
          Apply as a commit is off: {noCommit}
        </p>
      )}
    </div>
  );
}
