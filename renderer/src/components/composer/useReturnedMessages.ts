/**
 * Messages a cancel handed back come home to the composer: their text joins the draft once,
 * and `session.takeReturned` tells the app, so `returned` stops growing.
 */
import { useEffect, useRef } from 'react';
import type { QueuedMessage } from '../../../../shared/reducer';
import { useApi } from '../../api/api-context';

export function useReturnedMessages(
  sessionId: string,
  returned: readonly QueuedMessage[],
  addToDraft: (text: string) => void,
  onError: (text: string) => void,
): void {
  const api = useApi();
  // Ids already put into the draft: the list stays until the app's returned_taken event arrives.
  const taken = useRef(new Set<string>());

  useEffect(() => {
    const fresh = returned.filter((m) => !taken.current.has(m.messageId));
    if (fresh.length === 0) return;
    for (const m of fresh) taken.current.add(m.messageId);
    addToDraft(fresh.map((m) => m.text).join('\n\n'));
    void api['session.takeReturned']({ id: sessionId }).then((reply) => {
      if (!reply.ok) onError(`Could not take back the returned messages: ${reply.error}`);
    });
  }, [api, sessionId, returned, addToDraft, onError]);
}
