/**
 * What the review screen's last step did, or is doing: "Applying 3 files…" while on its
 * way, then the outcome line by line (applied, the commit, conflicts left alone, failures
 * with their reasons), or the host's error in words.
 */
import type { PlaceApplyReply, SessionPlace } from '../../../../shared/places';
import { filesWord } from '../changes/change-words';
import { outcomeLines, placeName } from './place-words';

export interface StepState {
  kind: 'apply' | 'discard';
  pending: boolean;
  error: string | null;
  /** For an apply: how many files were asked for, and whether as a commit. */
  asked?: { files: number; as: 'files' | 'commit' };
  applied?: PlaceApplyReply;
  discarded?: { place: SessionPlace; keepBranch: boolean };
}

export function ApplyResult({ step, origin }: { step: StepState | null; origin: string }) {
  return (
    <div className="changes-result review-result">
      <div role="status" className="changes-outcome review-outcome">
        {step && <Outcome step={step} origin={origin} />}
      </div>
      {step?.error != null && (
        <p className="dialog-error" role="alert">
          {step.kind === 'apply' ? 'Could not apply' : 'Could not remove the place'}: {step.error}
        </p>
      )}
    </div>
  );
}

function Outcome({ step, origin }: { step: StepState; origin: string }) {
  if (step.pending) {
    if (step.kind === 'discard') return <p>Removing the place…</p>;
    const files = filesWord(step.asked?.files ?? 0);
    return <p>{step.asked?.as === 'commit' ? `Applying ${files} and making the commit…` : `Applying ${files}…`}</p>;
  }
  if (step.applied) {
    return (
      <ul className="review-outcome-lines">
        {outcomeLines(step.applied, origin).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    );
  }
  if (step.discarded) return <p>{discardedWords(step.discarded.place, step.discarded.keepBranch)}</p>;
  return null;
}

export function discardedWords(place: SessionPlace, keepBranch: boolean): string {
  if (keepBranch && place.branch) {
    return `Removed the place. The branch ${place.branch} stays in ${place.origin}, to merge or delete with git.`;
  }
  const what = place.kind === 'worktree' ? `the place and its branch ${placeName(place)}` : 'the copy';
  return `Discarded ${what}. Your folder keeps whatever you applied.`;
}
