/**
 * Messages a cancel handed back come home to the composer: their text joins the draft once,
 * and `session.takeReturned` tells the app, so `returned` stops growing.
 */
import { useEffect } from 'react';
import type { QueuedMessage } from '../../../../shared/reducer';
import { useApi } from '../../api/api-context';
import { useAppStore, useAppStoreApi } from '../../store/app-store';

export function useReturnedMessages(
  sessionId: string,
  returned: readonly QueuedMessage[],
  onError: (text: string) => void,
): void {
  const api = useApi();
  const store = useAppStoreApi();
  const taken = useAppStore((s) => s.returnedTaken);

  useEffect(() => {
    // The list stays until the app's returned_taken event arrives: take each message once.
    const fresh = returned.filter((m) => !taken[m.messageId]);
    if (fresh.length === 0) return;
    const s = store.getState();
    s.markReturnedTaken(fresh.map((m) => m.messageId));
    const draft = s.drafts[sessionId] ?? '';
    const joined = fresh.map((m) => m.text).join('\n\n');
    s.setDraft(sessionId, draft.trim() === '' ? joined : `${draft}\n\n${joined}`);
    void api['session.takeReturned']({ id: sessionId }).then((reply) => {
      if (!reply.ok) onError(`Could not take back the returned messages: ${reply.error}`);
    });
  }, [api, store, sessionId, returned, taken, onError]);
}
