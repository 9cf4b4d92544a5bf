/**
 * The words a place of its own is shown with (SPEC §15): what it is and where it came from,
 * each reviewed file's state, and what an apply did. Pure, so the tab, the session's bar,
 * the review screen, the transcript and Settings say the same thing the same way.
 */
import type { PlaceApplyOutcome, PlaceFileChange, SessionPlace } from '../../../../shared/places';
import { filesWord, pathList } from '../changes/change-words';

/** How a place is named at a glance: a worktree by its branch, a copy as a copy. */
export function placeName(place: Pick<SessionPlace, 'kind' | 'branch'>): string {
  return place.kind === 'worktree' && place.branch ? place.branch : 'a copy';
}

/** What a tab says of its session's place: the branch, or that it works in a copy. */
export function tabPlaceWords(place: Pick<SessionPlace, 'kind' | 'branch'>): string {
  return place.kind === 'worktree' && place.branch ? place.branch : 'in a copy';
}

/** "branch gatehouse/fix-tests, a worktree of ~/src/app" or "a copy of ~/src/notes". */
export function placeLine(place: Pick<SessionPlace, 'kind' | 'branch' | 'origin'>): string {
  return place.kind === 'worktree'
    ? `branch ${place.branch ?? '(none)'}, a worktree of ${place.origin}`
    : `a copy of ${place.origin}`;
}

/** A file's state against the person's folder, as the review found it. */
export const STATUS_WORDS: Record<PlaceFileChange['status'], string> = {
  ready: 'Ready to apply',
  conflict: 'Conflict: you changed it too',
  applied: 'Already in your folder',
};

/** Why a file cannot be ticked, or null when it can. */
export function untickableWhy(file: PlaceFileChange): string | null {
  if (file.status === 'conflict') {
    return 'You changed this file since the session began, so Apply leaves it alone. Bring the change over by hand if you want it.';
  }
  if (file.status === 'applied') return 'Your folder already has exactly this version.';
  return null;
}

/** The first 7 characters of a commit, as git shows it. */
export function shortCommit(hash: string): string {
  return hash.slice(0, 7);
}

/** Each line of what an apply did, in the order a person checks them. */
export function outcomeLines(outcome: PlaceApplyOutcome & { interrupted?: true }, origin?: string): string[] {
  const lines: string[] = [];
  if (outcome.interrupted) lines.push('Gatehouse stopped during this apply; after the restart it checked each file.');
  const where = origin ? ` to ${origin}` : '';
  lines.push(
    outcome.applied.length > 0 ? `Applied ${filesWord(outcome.applied.length)}${where}.` : `Applied no files${where}.`,
  );
  if (outcome.commit) lines.push(`Made commit ${shortCommit(outcome.commit)} on your branch.`);
  if (outcome.conflicts.length > 0) {
    lines.push(
      `Left alone, changed in your folder since the review: ${pathList(outcome.conflicts)}. Review again to see them as conflicts.`,
    );
  }
  for (const failed of outcome.failed) lines.push(`Not applied: ${failed.path}: ${failed.reason}`);
  return lines;
}

/** What the Open dialog says when the agent picked can only work in a place of its own. */
export function placeForcedWhy(agentLabel: string): string {
  return `${agentLabel} writes and runs commands by itself, so it always works in a place of its own: nothing reaches your folder until you apply it.`;
}
