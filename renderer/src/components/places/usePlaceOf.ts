/** The place of its own a session works in, or null, followed in the store. */
import type { SessionPlace } from '../../../../shared/places';
import { useAppStore } from '../../store/app-store';
import { placeOf } from '../../store/session-place';

export function usePlaceOf(sessionId: string): SessionPlace | null {
  return useAppStore((s) => placeOf(s.sessions[sessionId]));
}
