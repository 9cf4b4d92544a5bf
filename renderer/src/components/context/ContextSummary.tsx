/** The head of "What the model sees": the model, the estimate against the window, and what is about to change. */
import type { ContextPreview } from '../../../../shared/context-preview';
import { calibrationWords, estimateWords } from './preview-words';

export function ContextSummary({ preview }: { preview: ContextPreview }) {
  return (
    <div className="context-summary">
      <p>
        <span className="context-key">Model</span>{' '}
        <span className="mono">{preview.model ?? 'none set: choose one in Settings'}</span>
      </p>
      <p>
        <span className="context-key">Next request</span> {estimateWords(preview)}
      </p>
      <p className="field-help">{calibrationWords(preview)}</p>
      {preview.pending && (
        <p className="context-pending" role="note">
          {preview.pending}
        </p>
      )}
    </div>
  );
}
