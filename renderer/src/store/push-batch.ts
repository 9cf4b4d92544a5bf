/**
 * One animation frame's pushes folded into the sessions at once. Events go through
 * shared/reducer.ts's foldEvents (one call per session per frame), in seq order; an event
 * already folded is ignored, and a gap stops the fold so the caller can catch up with
 * `session.events {sinceSeq}`. Deltas and live output are applied in arrival order, so a
 * step's assistant_text clears exactly the text streamed before it.
 */
import type { Push } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import { foldEvents } from '../../../shared/reducer';
import { appendLiveOutput } from './live-output';
import type { SessionEntry } from './sessions-slice';

export interface FoldResult {
  /** Entries that changed, by session id. */
  changed: Record<string, SessionEntry>;
  /** Sessions that saw a gap: catch up from this lastSeq. */
  gaps: Map<string, number>;
}

interface Draft {
  entry: SessionEntry;
  lastSeq: number;
  events: SessionEvent[];
  gap: boolean;
}

export function foldPushes(sessions: Record<string, SessionEntry>, pushes: readonly Push[]): FoldResult {
  const drafts = new Map<string, Draft>();
  const draftOf = (id: string): Draft | null => {
    const existing = drafts.get(id);
    if (existing) return existing;
    const entry = sessions[id];
    // Pushes for a session the window has not loaded are dropped: loading folds the whole log.
    if (!entry?.state) return null;
    const draft: Draft = { entry: { ...entry }, lastSeq: entry.state.lastSeq, events: [], gap: false };
    drafts.set(id, draft);
    return draft;
  };

  for (const push of pushes) {
    if (push.name === 'session.event') acceptEvents(draftOf(push.payload.id), [push.payload.event]);
    else if (push.name === 'session.delta') applyDelta(draftOf(push.payload.id), push.payload);
    else if (push.name === 'session.output') {
      const d = draftOf(push.payload.id);
      if (!d) continue;
      const { toolCallId, chunk } = push.payload;
      d.entry.liveOutput = {
        ...d.entry.liveOutput,
        [toolCallId]: appendLiveOutput(d.entry.liveOutput[toolCallId], chunk),
      };
    }
  }
  return finish(drafts);
}

/** Events from a catch-up (`session.events`), folded the same way. */
export function foldCaughtUp(entry: SessionEntry, events: readonly SessionEvent[]): FoldResult {
  const id = entry.summary.id;
  return foldPushes(
    { [id]: entry },
    events.map((event) => ({ name: 'session.event', payload: { id, event } }) as Push),
  );
}

function acceptEvents(d: Draft | null, events: SessionEvent[]): void {
  if (!d) return;
  for (const event of events) {
    if (event.seq <= d.lastSeq) continue;
    if (d.gap || event.seq > d.lastSeq + 1) {
      d.gap = true;
      continue;
    }
    d.events.push(event);
    d.lastSeq = event.seq;
    settleLiveViews(d.entry, event);
  }
}

/** The whole text and the result replace what was streamed live for them. */
function settleLiveViews(entry: SessionEntry, event: SessionEvent): void {
  if ((event.type === 'assistant_text' || event.type === 'turn_ended') && entry.streaming?.turnId === event.turnId) {
    entry.streaming = null;
  }
  if (event.type === 'tool_result' && event.toolCallId in entry.liveOutput) {
    const { [event.toolCallId]: _done, ...rest } = entry.liveOutput;
    entry.liveOutput = rest;
  }
}

function applyDelta(d: Draft | null, delta: { turnId: string; text: string; reset?: boolean }): void {
  if (!d) return;
  const prev = d.entry.streaming;
  const keep = !delta.reset && prev?.turnId === delta.turnId ? prev.text : '';
  d.entry.streaming = { turnId: delta.turnId, text: keep + delta.text };
}

function finish(drafts: Map<string, Draft>): FoldResult {
  const changed: Record<string, SessionEntry> = {};
  const gaps = new Map<string, number>();
  for (const [id, d] of drafts) {
    const state = d.entry.state!;
    if (d.events.length > 0) d.entry.state = foldEvents(d.events, state);
    changed[id] = d.entry;
    if (d.gap) gaps.set(id, d.lastSeq);
  }
  return { changed, gaps };
}
