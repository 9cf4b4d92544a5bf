/**
 * A session's place as its log left it when the process stopped at a bad moment, settled
 * when the session opens, before it is built (its workspace and its driver read the place):
 * - stopped in a discard (the log says `discarding`): the discard is finished and logged,
 *   so the session reads as one whose place was discarded, not one whose folder is missing;
 * - stopped between making the session and logging its place: the place made for it
 *   (`place.json`) is logged now, when it is the session's workspace, so the session works
 *   in it rather than having its workspace refused as part of the data folder.
 */
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { Places } from './places.js';
import { placeInLog } from './session-place.js';

export interface PlaceLogToSettle {
  id: string;
  /** The session's workspace as meta.json keeps it. */
  workspace: string;
  events: readonly SessionEvent[];
  append: (payload: EventPayload) => Promise<SessionEvent>;
}

export interface SettledPlaceLog {
  /** The events as they now stand. */
  events: readonly SessionEvent[];
  /** Set when a discard was finished now: the words for the session with no workspace. */
  why?: string;
}

export const DISCARD_FINISHED =
  'Gatehouse stopped while discarding its place and finished the discard when it started again, so this session can only be read';

/** What the stop left, settled and logged. */
export async function settlePlaceLog(places: Places, session: PlaceLogToSettle): Promise<SettledPlaceLog> {
  const { events } = session;
  const place = placeInLog(events);
  if (place) {
    if (place.state !== 'active' || !place.discarding) return { events };
    const discarded = await places.finishDiscard(place, place.discarding.keepBranch);
    return { events: [...events, await session.append({ type: 'place', place: discarded })], why: DISCARD_FINISHED };
  }
  const made = await places.madeFor(session.id);
  if (!made || made.path !== session.workspace) return { events };
  return { events: [...events, await session.append({ type: 'place', place: made })] };
}
