/** Messages waiting for the running turn to end, each removable before it starts. */
import { useState } from 'react';
import type { QueuedMessage } from '../../../../shared/reducer';
import { useApi } from '../../api/api-context';

export function QueuedMessages({ sessionId, queue }: { sessionId: string; queue: readonly QueuedMessage[] }) {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  if (queue.length === 0) return null;

  const remove = async (messageId: string) => {
    setError(null);
    const reply = await api['session.unqueue']({ id: sessionId, messageId });
    if (!reply.ok) setError(`Could not remove it: ${reply.error}`);
  };

  return (
    <div className="queued">
      <ul className="queued-list" aria-label="Queued messages">
        {queue.map((m) => (
          <li key={m.messageId} className="queued-item">
            <span className="queued-badge">queued</span>
            <span className="queued-text">{m.text}</span>
            <button
              type="button"
              className="queued-remove"
              aria-label={`Remove queued message: ${m.text.slice(0, 60)}`}
              onClick={() => void remove(m.messageId)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="composer-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
