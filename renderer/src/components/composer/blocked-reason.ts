/** Why the composer cannot send right now, in the words it shows; null when it can. */
import type { SessionState } from '../../../../shared/reducer';

export function blockedReason(state: SessionState | null): string | null {
  if (!state) return 'Loading the session…';
  if (state.openCards.length > 0) return 'Answer the permission card above first';
  if (state.openQuestion) return 'Answer the question above first';
  // Its place of its own was its only folder (SPEC §15): there is nothing left to work in.
  if (state.place?.state === 'discarded') return 'Its place was discarded: open a new session to go on';
  return null;
}
