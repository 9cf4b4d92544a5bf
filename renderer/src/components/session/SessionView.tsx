/**
 * The active session: its transcript fills the space, its open cards are pinned under it,
 * and the composer sits at the bottom, where a card appearing cannot move it.
 */
import { useAppStore } from '../../store/app-store';
import { Composer } from '../composer/Composer';
import { SESSION_PANEL_ID } from '../tabs/TabBar';
import { Transcript } from '../transcript/Transcript';
import { PinnedCards } from './PinnedCards';

const NO_OUTPUT = {};

export function SessionView({ sessionId }: { sessionId: string }) {
  const entry = useAppStore((s) => s.sessions[sessionId]);
  if (!entry) return null;
  const { summary, state } = entry;
  return (
    <div className="session-view" id={SESSION_PANEL_ID} role="tabpanel" aria-label={summary.title}>
      <div className="transcript-box">
        {state ? (
          <Transcript
            sessionId={sessionId}
            workspace={summary.workspace}
            items={state.transcript}
            streaming={entry.streaming?.text ?? null}
            liveOutput={entry.liveOutput ?? NO_OUTPUT}
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
