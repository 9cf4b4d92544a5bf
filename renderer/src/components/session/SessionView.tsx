/**
 * The active session: its transcript fills the space, its open cards are pinned under it,
 * and the composer sits at the bottom, where a card appearing cannot move it. A turn's
 * Changes and a rewind open from the transcript's rows and show here.
 */
import { useMemo } from 'react';
import type { SessionState } from '../../../../shared/reducer';
import { useAppStore } from '../../store/app-store';
import { CheckpointActionsContext } from '../changes/checkpoint-actions';
import { NO_LIVE } from '../../store/sessions-slice';
import { Composer } from '../composer/Composer';
import { PlaceBar } from '../places/PlaceBar';
import { SESSION_PANEL_ID } from '../tabs/TabBar';
import { Transcript, type TranscriptCheckpoints } from '../transcript/Transcript';
import { PinnedCards } from './PinnedCards';
import { useCheckpointDialogs } from './useCheckpointDialogs';

export function SessionView({ sessionId }: { sessionId: string }) {
  const entry = useAppStore((s) => s.sessions[sessionId]);
  const live = useAppStore((s) => s.live[sessionId] ?? NO_LIVE);
  const { actions, dialog } = useCheckpointDialogs(sessionId);
  const checkpoints = useCheckpoints(entry?.state ?? null);
  // A tab restored from the last visit shows before the session list has arrived.
  if (!entry) return <p className="session-loading">Loading the session…</p>;
  const { summary, state } = entry;
  return (
    <div className="session-view" id={SESSION_PANEL_ID} role="tabpanel" aria-label={summary.title}>
      <PlaceBar sessionId={sessionId} />
      <div className="transcript-box">
        <CheckpointActionsContext.Provider value={actions}>
          {state ? (
            <Transcript
              sessionId={sessionId}
              workspace={summary.workspace}
              items={state.transcript}
              streaming={live.streaming?.text ?? null}
              liveOutput={live.liveOutput}
              turnUsage={state.usage.turns}
              checkpoints={checkpoints}
            />
          ) : (
            <p className="session-loading">Loading the session…</p>
          )}
        </CheckpointActionsContext.Provider>
      </div>
      {state && <PinnedCards sessionId={sessionId} workspace={summary.workspace} state={state} />}
      <Composer sessionId={sessionId} />
      {dialog}
    </div>
  );
}

/** The transcript's checkpoint marks, a new object only when one of them changed. */
function useCheckpoints(state: SessionState | null): TranscriptCheckpoints | undefined {
  const { changedPaths, undone, rewound } = state ?? {};
  const running = state?.turnId != null;
  return useMemo(
    () => (changedPaths && undone && rewound ? { changedPaths, undone, rewound, running } : undefined),
    [changedPaths, undone, rewound, running],
  );
}
