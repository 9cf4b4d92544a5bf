/**
 * "What the model sees": the exact context of the session's next model step, part by part
 * with token counts, read-only (SPEC.md §8, Seeing it), and "Compact now". Opened from the
 * context meter or Ctrl/Cmd+Shift+M, for the active session.
 */
import { useAppStore } from '../../store/app-store';
import { Dialog } from '../frame/Dialog';
import { CompactNow } from './CompactNow';
import { ContextParts } from './ContextParts';
import { ContextSummary } from './ContextSummary';
import { useContextPreview } from './useContextPreview';
import './context.css';

export function ContextDialog({ sessionId }: { sessionId: string }) {
  const closeDialog = useAppStore((s) => s.closeDialog);
  const { preview, loading, error, refresh } = useContextPreview(sessionId);
  return (
    <Dialog title="What the model sees" className="context-dialog" onClose={closeDialog}>
      <div className="context-head">
        {preview && <ContextSummary preview={preview} />}
        {error && (
          <p className="dialog-error" role="alert">
            Could not read the context: {error}
          </p>
        )}
        <div className="context-actions">
          {/* Never disabled: the dialog puts the focus here when it opens, while the first answer is on its way. */}
          <button type="button" data-autofocus onClick={refresh}>
            Refresh
          </button>
          {loading && <span className="field-help">Reading the context…</span>}
        </div>
        <CompactNow sessionId={sessionId} onDone={refresh} />
      </div>
      {preview && <ContextParts parts={preview.parts} />}
    </Dialog>
  );
}
