/**
 * The Changes view's one call that changes the workspace: Undo turn, Revert a file, or Redo,
 * through one use-call, so the latest one's outcome or error is what the view says.
 */
import type { RestoreOutcome } from '../../../../shared/checkpoints';
import { useCall } from '../../api/use-call';
import { filesWord } from './change-words';
import { restoredWords } from './restore-words';

export type RestoreAsk =
  /** `paths` for a Revert; `overwrite` the ticked files that changed since. */
  { kind: 'undo'; paths?: string[]; overwrite: string[] } | { kind: 'redo' };

export function useRestore(sessionId: string, turnId: string) {
  return useCall((api, ask: RestoreAsk) =>
    ask.kind === 'redo'
      ? api['session.redo']({ id: sessionId })
      : api['session.undo']({
          id: sessionId,
          turnId,
          ...(ask.paths ? { paths: ask.paths } : {}),
          ...(ask.overwrite.length > 0 ? { overwrite: ask.overwrite } : {}),
        }),
  );
}

/** "Undid the turn: restored 2 files (a.py, b.py); left 1 you changed since: c.py". */
export function restoreOutcomeWords(ask: RestoreAsk, outcome: RestoreOutcome): string {
  const what = ask.kind === 'redo' ? 'Redid' : ask.paths ? `Reverted ${filesWord(ask.paths.length)}` : 'Undid the turn';
  return `${what}: ${restoredWords(outcome.restored, outcome.kept)}.`;
}

/** "Could not undo the turn: …" */
export function restoreErrorWords(ask: RestoreAsk | undefined, error: string): string {
  const what = ask?.kind === 'redo' ? 'redo' : ask?.paths ? 'revert' : 'undo the turn';
  return `Could not ${what}: ${error}`;
}
