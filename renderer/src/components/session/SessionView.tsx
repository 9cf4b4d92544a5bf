/**
 * The active session: its transcript fills the space, its open cards are pinned under it,
 * and the composer sits at the bottom, where a card appearing cannot move it.
 */
import { useAppStore } from '../../store/app-store';
import { NO_LIVE } from '../../store/sessions-slice';
import { Composer } from '../composer/Composer';
import { SESSION_PANEL_ID } from '../tabs/TabBar';
import { Transcript } from '../transcript/Transcript';
import { PinnedCards } from './PinnedCards';

export function SessionView({ sessionId }: { sessionId: string }) {
  const entry = useAppStore((s) => s.sessions[sessionId]);
  const live = useAppStore((s) => s.live[sessionId] ?? NO_LIVE);
  // A tab restored from the last visit shows before the session list has arrived.
  if (!entry) return <p className="session-loading">Loading the session…</p>;
  const { summary, state } = entry;
  return (
    <div className="session-view" id={SESSION_PANEL_ID} role="tabpanel" aria-label={summary.title}>
      <div className="transcript-box">
        {state ? (
          <Transcript
            sessionId={sessionId}
            workspace={summary.workspace}
            items={state.transcript}
            streaming={live.streaming?.text ?? null}
            liveOutput={live.liveOutput}
            turnUsage={state.usage.turns}
          />
        ) : (
          <p className="session-loading">Loading the session…</p>
        )}
      </div>
      {state && <PinnedCards sessionId={sessionId} workspace={summary.workspace} state={state} />}
      <Composer sessionId={sessionId} />
    </div>
  );
}
