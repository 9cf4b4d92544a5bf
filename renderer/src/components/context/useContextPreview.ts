/**
 * Asks the app for the session's next context (`session.context`) when the dialog opens
 * and on Refresh. The last preview stays on screen while a refresh is on its way, and an
 * answer that a newer request overtook is dropped (useCall).
 */
import { useCallback, useEffect } from 'react';
import type { ContextPreview } from '../../../../shared/context-preview';
import { useCall } from '../../api/use-call';

export interface PreviewState {
  preview: ContextPreview | null;
  loading: boolean;
  error: string | null;
  refresh(): void;
}

export function useContextPreview(sessionId: string): PreviewState {
  const context = useCall((api) => api['session.context']({ id: sessionId }));
  const { run } = context;

  useEffect(() => {
    void run();
  }, [run, sessionId]);
  const refresh = useCallback(() => void run(), [run]);

  return {
    preview: context.data ?? null,
    // Nothing asked yet counts as loading: the dialog opens reading.
    loading: context.pending || (context.data === undefined && context.error === null),
    error: context.error,
    refresh,
  };
}
