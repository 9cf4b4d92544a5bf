/**
 * The Changes view's actions: Undo turn (or "Undone" once it is), Redo, and why they are
 * off, said next to them in words rather than only in a tooltip; then what the last
 * action did, or why it failed.
 */
export interface RedoOffer {
  label: string;
  /** When the redo would bring back another undo than this turn's: which. */
  note: string | null;
}

interface ChangesActionsProps {
  undone: boolean;
  /** Why Undo and Revert cannot be used now, or null. */
  undoOff: string | null;
  redo: RedoOffer | null;
  running: boolean;
  busy: boolean;
  onUndo: () => void;
  onRedo: () => void;
}

export function ChangesActions({ undone, undoOff, redo, running, busy, onUndo, onRedo }: ChangesActionsProps) {
  return (
    <div className="changes-actions">
      <div className="changes-buttons">
        {undone ? (
          <p className="changes-undone">
            <strong>Undone.</strong> Redo brings the turn’s changes back.
          </p>
        ) : (
          <button type="button" disabled={undoOff !== null || busy} onClick={onUndo}>
            Undo turn
          </button>
        )}
        {redo && (
          <button type="button" disabled={running || busy} onClick={onRedo}>
            {redo.label}
          </button>
        )}
        {undoOff && <p className="changes-off">{undoOff}</p>}
      </div>
      {redo?.note && <p className="field-help">{redo.note}</p>}
    </div>
  );
}
