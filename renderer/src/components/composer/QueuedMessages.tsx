/** Messages waiting for the running turn to end, each removable before it starts. */
import type { QueuedMessage } from '../../../../shared/reducer';
import { useCall } from '../../api/use-call';

export function QueuedMessages({ sessionId, queue }: { sessionId: string; queue: readonly QueuedMessage[] }) {
  const remove = useCall((api, messageId: string) => api['session.unqueue']({ id: sessionId, messageId }));
  if (queue.length === 0) return null;

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
              onClick={() => void remove.run(m.messageId)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {remove.error && (
        <p className="composer-error" role="alert">
          {`Could not remove it: ${remove.error}`}
        </p>
      )}
    </div>
  );
}
