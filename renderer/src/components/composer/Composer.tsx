/**
 * Where the person writes to the agent. Enter sends and Shift+Enter starts a new line.
 * While a card or question is open nothing can be sent and the composer says why; the
 * field itself stays editable so a card going up never takes the focus or the text away.
 * While a turn runs, sending queues. Typing here never answers a card.
 */
import type { KeyboardEvent } from 'react';
import { useCall } from '../../api/use-call';
import { useAppStore, useAppStoreApi } from '../../store/app-store';
import { CompactingNote } from '../context/CompactingNote';
import { ContextMeter } from '../context/ContextMeter';
import { blockedReason } from './blocked-reason';
import { QueuedMessages } from './QueuedMessages';
import { useReturnedMessages } from './useReturnedMessages';

const NO_QUEUE: never[] = [];

export function Composer({ sessionId }: { sessionId: string }) {
  const store = useAppStoreApi();
  const state = useAppStore((s) => s.sessions[sessionId]?.state ?? null);
  const draft = useAppStore((s) => s.drafts[sessionId] ?? '');
  const setDraft = useAppStore((s) => s.setDraft);
  const sending = useCall((api, text: string) => api['session.send']({ id: sessionId, text }));
  const cancelling = useCall((api) => api['session.cancel']({ id: sessionId }));
  const takeBack = useReturnedMessages(sessionId, state?.returned ?? NO_QUEUE);

  const reason = blockedReason(state);
  const running = state?.turnId != null;
  const canSend = reason === null && !sending.pending && draft.trim() !== '';
  // One line of trouble, the newest kind first: a send clears what the others said.
  const error =
    cancelling.error !== null
      ? `Could not cancel: ${cancelling.error}`
      : takeBack.error !== null
        ? `Could not take back the returned messages: ${takeBack.error}`
        : sending.error !== null
          ? `Not sent: ${sending.error}`
          : null;

  const send = async () => {
    if (!canSend) return;
    for (const said of [cancelling, takeBack]) if (said.error !== null) said.reset();
    const text = draft;
    const reply = await sending.run(text);
    // Only the sent text leaves the draft: what was typed while the send was on its way stays.
    const now = store.getState().drafts[sessionId] ?? '';
    if (reply.ok) setDraft(sessionId, now.startsWith(text) ? now.slice(text.length).trimStart() : now);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME's Enter confirms the composition; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  const hintId = `composer-hint-${sessionId}`;
  const hint = reason ?? (running ? 'The agent is working: what you send now waits in the queue.' : null);
  return (
    <div className="composer">
      <QueuedMessages sessionId={sessionId} queue={state?.queue ?? NO_QUEUE} />
      {hint && (
        <p id={hintId} className={`composer-hint${reason ? ' composer-blocked' : ''}`}>
          {hint}
        </p>
      )}
      {/* Above the row, like the hint: a message appearing must not move the buttons. */}
      {error && (
        <p className="composer-error" role="alert">
          {error}
        </p>
      )}
      <div className="composer-row">
        <textarea
          className="composer-input"
          aria-label="Message"
          aria-describedby={hint ? hintId : undefined}
          placeholder="Message the agent (Enter to send, Shift+Enter for a new line)"
          rows={3}
          value={draft}
          onChange={(e) => setDraft(sessionId, e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-buttons">
          <button type="button" className="primary" disabled={!canSend} onClick={() => void send()}>
            Send
          </button>
          <button type="button" disabled={!running} onClick={() => void cancelling.run()} title="Cancel the turn (Esc)">
            Cancel
          </button>
        </div>
      </div>
      <div className="composer-footer">
        <CompactingNote sessionId={sessionId} />
        <ContextMeter sessionId={sessionId} />
      </div>
    </div>
  );
}
