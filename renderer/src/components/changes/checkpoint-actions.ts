/**
 * What the transcript's rows can ask of the session around them (SPEC §12): open a turn's
 * Changes, or the rewind choices for a message. The session view provides it and shows the
 * dialogs itself, outside the transcript: a row can scroll out of the virtualized list,
 * and a dialog inside a moved row would be placed by the row, not the window. Without a
 * provider (a transcript shown on its own) the rows offer neither.
 */
import { createContext, useContext } from 'react';

export interface CheckpointActions {
  openChanges(turnId: string): void;
  /** `seq` is the user message's, as logged. */
  openRewind(seq: number): void;
  /** Why undo is off on this machine (no git), with what to do, in words; null when it runs. */
  undoOff: string | null;
}

export const CheckpointActionsContext = createContext<CheckpointActions | null>(null);

export function useCheckpointActions(): CheckpointActions | null {
  return useContext(CheckpointActionsContext);
}
