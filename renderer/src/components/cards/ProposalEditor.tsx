/**
 * The write card's editable side (UI.md card rule 11): the person's version of the file in
 * an editor, loaded lazily (CodeEditor carries CodeMirror), with Reset back to the model's
 * proposal. What it says about the text (edited or not, kept from the last card) is here;
 * the diff it rebuilds is shown by WriteCard, and the answer by the answer bar.
 */
import { lazy, Suspense } from 'react';
import type { CardEditing } from './useCardEditing';
import { VisibleText } from './VisibleText';
import './card-editor.css';

const loadEditor = () => import('./CodeEditor');
/** A chunk that cannot be fetched (the host went away, a newer build) says so on the card, never blanks the window. */
const CodeEditor = lazy(() =>
  loadEditor().catch((error: unknown) => ({
    default: function EditorNotLoaded() {
      return (
        <p className="box-danger card-error">
          Could not load the editor: {error instanceof Error ? error.message : String(error)}
        </p>
      );
    },
  })),
);

/** How long after a write card appears its editor's code is fetched: after the card's first paint. */
const PRELOAD_AFTER_MS = 300;

/**
 * Fetches the editor's code soon after a write card appears, so Edit opens at once; never
 * on the window's first load, and never in the way of the card's own first paint.
 */
export function preloadEditorSoon(): () => void {
  const timer = setTimeout(() => void loadEditor().catch(() => undefined), PRELOAD_AFTER_MS);
  return () => clearTimeout(timer);
}

interface ProposalEditorProps {
  editing: CardEditing;
  /** The path as the card names it (workspace-relative). */
  path: string;
  /** The person opened it with the Edit button (focus it then; never for a card that appeared). */
  focusOnLoad: boolean;
}

export function ProposalEditor({ editing, path, focusOnLoad }: ProposalEditorProps) {
  const label = `Your version of ${path}`;
  return (
    <div className="card-editor">
      <div className="card-editor-bar">
        <span className="card-editor-title">
          Your version of <VisibleText className="card-path" text={path} />
        </span>
        <span className="card-editor-state">
          {editing.text === null
            ? ''
            : editing.edited
              ? 'edited by you'
              : editing.kept
                ? 'same as the proposal'
                : 'the proposal, unchanged'}
        </span>
        <button
          type="button"
          className="card-secondary card-editor-reset"
          disabled={!editing.edited}
          onClick={editing.reset}
        >
          Reset to the proposal
        </button>
      </div>
      {editing.loadError && (
        <p className="box-danger card-error">Could not load the proposal to edit: {editing.loadError}</p>
      )}
      {editing.initial === null ? (
        !editing.loadError && <p className="card-note">Loading the proposal…</p>
      ) : (
        <Suspense fallback={<p className="card-note">Loading the editor…</p>}>
          <CodeEditor
            initial={editing.initial}
            label={label}
            resets={editing.resets}
            resetText={editing.proposal}
            autoFocus={focusOnLoad}
            onChange={editing.change}
          />
        </Suspense>
      )}
    </div>
  );
}
