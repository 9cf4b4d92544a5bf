/**
 * The place of its own a session works in (SPEC §15), or null: the folded log when the
 * window loaded the session (a discard arrives there as an event), else its summary.
 */
import type { SessionSummary } from '../../../shared/contract';
import type { SessionPlace } from '../../../shared/places';
import type { SessionEntry } from './sessions-slice';

export function placeOf(entry: SessionEntry | undefined): SessionPlace | null {
  return entry?.state?.place ?? entry?.summary.place ?? null;
}

/** A place still there to review, apply from or discard. */
export function activePlaceOf(entry: SessionEntry | undefined): SessionPlace | null {
  const place = placeOf(entry);
  return place?.state === 'active' ? place : null;
}

/**
 * The person's folder a session belongs to: its place's origin when it works in a place of
 * its own (its workspace is then a folder in the data folder, which the person never chose).
 */
export function folderOf(summary: Pick<SessionSummary, 'workspace' | 'place'>): string {
  return summary.place?.origin ?? summary.workspace;
}
