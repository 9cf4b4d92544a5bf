/**
 * One animation frame's pushes folded into the sessions at once. Events go through
 * shared/reducer.ts's foldEvents (one call per session per frame), in seq order; an event
 * already folded is ignored, and a gap stops the fold so the caller can catch up with
 * `session.events {sinceSeq}`. Deltas and live output are applied in arrival order, so a
 * step's assistant_text clears exactly the text streamed before it. A session's entry is
 * replaced only when events arrived; deltas and output replace only its live view.
 */
import type { Push } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import { foldEvents } from '../../../shared/reducer';
import { appendLiveOutput } from './live-output';
import { NO_LIVE, type LiveView, type SessionEntry } from './sessions-slice';

export interface FoldResult {
  /** Entries that got new events, by session id. */
  changed: Record<string, SessionEntry>;
  /** Live views that changed, by session id. */
  live: Record<string, LiveView>;
  /** Sessions that saw a gap: catch up from this lastSeq. */
  gaps: Map<string, number>;
}

interface Draft {
  entry: SessionEntry;
  live: LiveView;
  liveChanged: boolean;
  lastSeq: number;
  events: SessionEvent[];
  gap: boolean;
}

export function foldPushes(
  sessions: Record<string, SessionEntry>,
  live: Record<string, LiveView>,
  pushes: readonly Push[],
): FoldResult {
  const drafts = new Map<string, Draft>();
  const draftOf = (id: string): Draft | null => {
    const existing = drafts.get(id);
    if (existing) return existing;
    const entry = sessions[id];
    // Pushes for a session the window has not loaded are dropped: loading folds the whole log.
    if (!entry?.state) return null;
    const draft: Draft = {
      entry,
      live: { ...(live[id] ?? NO_LIVE) },
      liveChanged: false,
      lastSeq: entry.state.lastSeq,
      events: [],
      gap: false,
    };
    drafts.set(id, draft);
    return draft;
  };

  for (const push of pushes) {
    if (push.name === 'session.event') acceptEvent(draftOf(push.payload.id), push.payload.event);
    else if (push.name === 'session.delta') applyDelta(draftOf(push.payload.id), push.payload);
    else if (push.name === 'session.output') applyOutput(draftOf(push.payload.id), push.payload);
  }
  return finish(drafts);
}

/** Events from a catch-up (`session.events`), folded the same way. */
export function foldCaughtUp(
  entry: SessionEntry,
  live: LiveView | undefined,
  events: readonly SessionEvent[],
): FoldResult {
  const id = entry.summary.id;
  const pushes = events.map((event) => ({ name: 'session.event', payload: { id, event } }) as Push);
  return foldPushes({ [id]: entry }, live ? { [id]: live } : {}, pushes);
}

function acceptEvent(d: Draft | null, event: SessionEvent): void {
  if (!d || event.seq <= d.lastSeq) return;
  if (d.gap || event.seq > d.lastSeq + 1) {
    d.gap = true;
    return;
  }
  d.events.push(event);
  d.lastSeq = event.seq;
  settleLiveView(d, event);
}

/** The whole text and the result replace what was streamed live for them. */
function settleLiveView(d: Draft, event: SessionEvent): void {
  const { live } = d;
  if ((event.type === 'assistant_text' || event.type === 'turn_ended') && live.streaming?.turnId === event.turnId) {
    live.streaming = null;
    d.liveChanged = true;
  }
  if (event.type === 'tool_result' && event.toolCallId in live.liveOutput) {
    const { [event.toolCallId]: _done, ...rest } = live.liveOutput;
    live.liveOutput = rest;
    d.liveChanged = true;
  }
}

function applyDelta(d: Draft | null, delta: { turnId: string; text: string; reset?: boolean }): void {
  if (!d) return;
  const prev = d.live.streaming;
  const keep = !delta.reset && prev?.turnId === delta.turnId ? prev.text : '';
  d.live.streaming = { turnId: delta.turnId, text: keep + delta.text };
  d.liveChanged = true;
}

function applyOutput(d: Draft | null, output: { toolCallId: string; chunk: string }): void {
  if (!d) return;
  const { toolCallId, chunk } = output;
  d.live.liveOutput = { ...d.live.liveOutput, [toolCallId]: appendLiveOutput(d.live.liveOutput[toolCallId], chunk) };
  d.liveChanged = true;
}

function finish(drafts: Map<string, Draft>): FoldResult {
  const result: FoldResult = { changed: {}, live: {}, gaps: new Map() };
  for (const [id, d] of drafts) {
    if (d.events.length > 0) result.changed[id] = { ...d.entry, state: foldEvents(d.events, d.entry.state!) };
    if (d.liveChanged) result.live[id] = d.live;
    if (d.gap) result.gaps.set(id, d.lastSeq);
  }
  return result;
}
