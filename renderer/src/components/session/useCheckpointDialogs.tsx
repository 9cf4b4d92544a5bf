/**
 * The session's checkpoint dialogs (a turn's Changes, a rewind), opened from transcript
 * rows through CheckpointActions and shown by the session view, outside the virtualized
 * transcript, so a row scrolling away cannot take its dialog with it.
 */
import { useMemo, useState, type ReactNode } from 'react';
import type { CheckpointActions } from '../changes/checkpoint-actions';
import { ChangesDialog } from '../changes/ChangesDialog';
import { RewindDialog } from '../changes/RewindDialog';
import { useAppStore } from '../../store/app-store';

type Open = { kind: 'changes'; turnId: string } | { kind: 'rewind'; seq: number } | null;

export function useCheckpointDialogs(sessionId: string): { actions: CheckpointActions; dialog: ReactNode } {
  const [open, setOpen] = useState<Open>(null);
  const checkpoints = useAppStore((s) => s.settings?.checkpoints);
  const undoOff = checkpoints?.available === false ? `${checkpoints.reason}. ${sentence(checkpoints.fix)}` : null;
  const actions = useMemo<CheckpointActions>(
    () => ({
      openChanges: (turnId) => setOpen({ kind: 'changes', turnId }),
      openRewind: (seq) => setOpen({ kind: 'rewind', seq }),
      undoOff,
    }),
    [undoOff],
  );
  const close = () => setOpen(null);
  const dialog =
    open?.kind === 'changes' ? (
      <ChangesDialog sessionId={sessionId} turnId={open.turnId} onClose={close} />
    ) : open?.kind === 'rewind' ? (
      <RewindDialog sessionId={sessionId} seq={open.seq} onClose={close} />
    ) : null;
  return { actions, dialog };
}

/** Words that may start lower-case and end bare, as a sentence. */
function sentence(words: string): string {
  const text = words.trim();
  if (text === '') return '';
  return `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}
