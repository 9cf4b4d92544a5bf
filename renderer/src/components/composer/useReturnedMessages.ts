/**
 * Messages a cancel handed back come home to the composer: their text joins the draft once,
 * and `session.takeReturned` tells the app, so `returned` stops growing. The call is handed
 * back, so the composer can say when telling the app failed.
 */
import { useEffect } from 'react';
import type { QueuedMessage } from '../../../../shared/reducer';
import { useCall, type Call } from '../../api/use-call';
import { useAppStore, useAppStoreApi } from '../../store/app-store';
import type { CallResponses } from '../../../../shared/contract';

export function useReturnedMessages(
  sessionId: string,
  returned: readonly QueuedMessage[],
): Call<[], CallResponses['session.takeReturned']> {
  const store = useAppStoreApi();
  const taken = useAppStore((s) => s.returnedTaken);
  const takeBack = useCall((api) => api['session.takeReturned']({ id: sessionId }));
  const { run } = takeBack;

  useEffect(() => {
    // The list stays until the app's returned_taken event arrives: take each message once.
    const fresh = returned.filter((m) => !taken[m.messageId]);
    if (fresh.length === 0) return;
    const s = store.getState();
    s.markReturnedTaken(fresh.map((m) => m.messageId));
    const draft = s.drafts[sessionId] ?? '';
    const joined = fresh.map((m) => m.text).join('\n\n');
    s.setDraft(sessionId, draft.trim() === '' ? joined : `${draft}\n\n${joined}`);
    void run();
  }, [run, store, sessionId, returned, taken]);

  return takeBack;
}
