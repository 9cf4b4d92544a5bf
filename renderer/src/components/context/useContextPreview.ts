/**
 * Asks the app for the session's next context (`session.context`) when the dialog opens
 * and on Refresh. The last preview stays on screen while a refresh is on its way, and an
 * answer that a newer request overtook is dropped.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ContextPreview } from '../../../../shared/context-preview';
import { useApi } from '../../api/api-context';

export interface PreviewState {
  preview: ContextPreview | null;
  loading: boolean;
  error: string | null;
  refresh(): void;
}

export function useContextPreview(sessionId: string): PreviewState {
  const api = useApi();
  const [preview, setPreview] = useState<ContextPreview | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  /** Grows with every Refresh; each value is one request. */
  const [ask, setAsk] = useState(0);

  useEffect(() => {
    // Cleared when a newer ask (or closing the dialog) replaces this one: its answer is then dropped.
    let wanted = true;
    setLoading(true);
    void api['session.context']({ id: sessionId }).then((reply) => {
      if (!wanted) return;
      setLoading(false);
      setError(reply.ok ? null : reply.error);
      if (reply.ok) setPreview(reply.data);
    });
    return () => {
      wanted = false;
    };
  }, [api, sessionId, ask]);

  const refresh = useCallback(() => setAsk((n) => n + 1), []);
  return { preview, loading, error, refresh };
}
