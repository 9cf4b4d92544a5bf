/**
 * A turn's Changes (SPEC §12, UI.md card rule 10): every file the turn changed, by writes
 * and commands alike, each with its diff; Revert a file, Undo turn, and Redo. A file
 * changed since the turn is named and left alone unless ticked. Asked again whenever an
 * undo or redo lands, from here or elsewhere, so the list is never older than the log.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { ChangesView } from '../../../../shared/checkpoints';
import type { SessionState } from '../../../../shared/reducer';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { Dialog } from '../frame/Dialog';
import { useFocusKept } from '../frame/useFocusKept';
import { filesWord } from './change-words';
import { ChangesActions, type RedoOffer } from './ChangesActions';
import { ChangesFileItem } from './ChangesFileItem';
import { checkpointWords } from './CheckpointDivider';
import { usePathSet } from './usePathSet';
import { restoreErrorWords, restoreOutcomeWords, useRestore, type RestoreAsk } from './useRestore';
import './changes.css';

/** Up to this many files, every diff shows open. */
const OPEN_UP_TO = 3;

interface ChangesDialogProps {
  sessionId: string;
  turnId: string;
  onClose: () => void;
}

export function ChangesDialog({ sessionId, turnId, onClose }: ChangesDialogProps) {
  const state = useAppStore((s) => s.sessions[sessionId]?.state ?? null);
  const changes = useCall((api) => api['session.changes']({ id: sessionId, turnId }));
  const { run } = changes;
  const stackTop = state?.undoStack.at(-1);
  const undoneSeq = state?.undone[turnId];
  const head = useRef<HTMLParagraphElement>(null);
  useEffect(() => void run(), [run, stackTop, undoneSeq]);

  return (
    <Dialog title="Changes" className="changes-dialog" onClose={onClose}>
      <p className="changes-head" tabIndex={-1} data-autofocus ref={head}>
        {changes.data ? headWords(changes.data, undoneSeq !== undefined) : 'Reading the turn’s changes…'}
      </p>
      {changes.error && (
        <p className="dialog-error" role="alert">
          Could not read the changes: {changes.error}
        </p>
      )}
      {changes.data && state && (
        <ChangesBody sessionId={sessionId} turnId={turnId} view={changes.data} state={state} head={head} />
      )}
    </Dialog>
  );
}

function headWords(view: ChangesView, undone: boolean): string {
  const files = view.files.length;
  if (files === 0) return 'This turn changed no files that can be shown.';
  return undone ? `This turn changed ${filesWord(files)}; it is undone.` : `This turn changed ${filesWord(files)}.`;
}

interface BodyProps {
  sessionId: string;
  turnId: string;
  view: ChangesView;
  state: SessionState;
  /** Where the focus goes when an action's button goes away under it: the words that say what changed. */
  head: RefObject<HTMLParagraphElement | null>;
}

function ChangesBody({ sessionId, turnId, view, state, head }: BodyProps) {
  const restore = useRestore(sessionId, turnId);
  useFocusKept(head);
  const ticked = usePathSet();
  const open = usePathSet(() => (view.files.length <= OPEN_UP_TO ? view.files.map((f) => f.path) : []));
  const running = state.turnId !== null;
  const undone = state.undone[turnId] !== undefined;
  const undoOff = !view.undo.ok
    ? `Undo is off: ${view.undo.why}`
    : running
      ? 'The agent is working: undo waits until the turn ends.'
      : null;

  const ask = (what: RestoreAsk) => void restore.run(what);

  return (
    <>
      <ChangesActions
        undone={undone}
        undoOff={undoOff}
        redo={redoOffer(state, turnId)}
        running={running}
        busy={restore.pending}
        onUndo={() => ask({ kind: 'undo', overwrite: ticked.list() })}
        onRedo={() => ask({ kind: 'redo' })}
      />
      <RestoreResult restore={restore} />
      <ul className="changes-files" aria-label="Files the turn changed">
        {view.files.map((file) => (
          <ChangesFileItem
            key={file.path}
            file={file}
            diffKey={`turn:${sessionId}:${turnId}:${file.path}`}
            open={open.has(file.path)}
            onToggle={() => open.set(file.path, !open.has(file.path))}
            ticked={ticked.has(file.path)}
            onTick={(on) => ticked.set(file.path, on)}
            revertOff={undoOff !== null || undone || restore.pending}
            warnSince={!undone}
            onRevert={() =>
              ask({ kind: 'undo', paths: [file.path], overwrite: ticked.has(file.path) ? [file.path] : [] })
            }
          />
        ))}
      </ul>
    </>
  );
}

/** Redo takes back the latest undo not yet redone, which may be another turn's: then it says whose. */
function redoOffer(state: SessionState, turnId: string): RedoOffer | null {
  const top = state.undoStack.at(-1);
  if (top === undefined) return null;
  if (top === state.undone[turnId]) return { label: 'Redo', note: null };
  const undo = state.transcript.findLast((item) => item.kind === 'undo' && item.seq === top);
  const what = undo?.kind === 'undo' ? checkpointWords(undo) : 'an undo of another turn';
  return { label: 'Redo the latest undo', note: `Redo brings back the latest undo, not this turn’s: ${what}.` };
}

function RestoreResult({ restore }: { restore: ReturnType<typeof useRestore> }) {
  const { args, data, error, pending } = restore;
  return (
    <div className="changes-result">
      <p role="status" className="changes-outcome">
        {pending ? 'Working…' : args && data && error === null ? restoreOutcomeWords(args[0], data) : ''}
      </p>
      {error !== null && (
        <p className="dialog-error" role="alert">
          {restoreErrorWords(args?.[0], error)}
        </p>
      )}
    </div>
  );
}
