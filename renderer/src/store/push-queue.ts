/**
 * Pushes wait here for the next animation frame and are folded into the store once per
 * frame (UI.md, Speed rules), so a burst of deltas re-renders once. A session being loaded
 * has its pushes held by its load instead, until its log arrived.
 */
import type { Push } from '../../../shared/contract';
import type { AppStore } from './app-store';
import { markCardEvent } from './card-paint';

export type FrameScheduler = (callback: () => void) => void;

/** The pushes the store folds; terminal and shell pushes have their own listeners. */
const STORE_PUSHES = new Set<Push['name']>([
  'session.event',
  'session.delta',
  'session.output',
  'sessions.changed',
  'session.compacting',
]);

export interface PushQueueDeps {
  store: AppStore;
  schedule: FrameScheduler;
  /** Where a loading session's pushes wait for its log; undefined when it is not loading. */
  heldFor: (id: string) => Push[] | undefined;
  /** Folds a batch of session pushes into the store. */
  fold: (pushes: Push[]) => void;
}

export class PushQueue {
  private queued: Push[] = [];
  private frameAsked = false;

  constructor(private readonly deps: PushQueueDeps) {}

  /** Every push from the app: the store's are queued (or held), the rest ignored. */
  offer(push: Push): void {
    if (!STORE_PUSHES.has(push.name)) return;
    // Marked on arrival, so the card-paint measure includes the wait for the frame's fold.
    if (push.name === 'session.event' && push.payload.event.type === 'card') markCardEvent(push.payload.event.cardId);
    // The compacting flag is not in the log, so a load cannot replay it: it is never held.
    const id = 'id' in push.payload && push.name !== 'session.compacting' ? push.payload.id : null;
    const held = id !== null ? this.deps.heldFor(id) : undefined;
    // A session being loaded keeps its pushes until its log arrived; duplicates fold away by seq.
    if (held) held.push(push);
    else this.queued.push(push);
    if (!this.frameAsked) {
      this.frameAsked = true;
      this.deps.schedule(() => this.flush());
    }
  }

  /** Folds what is queued now: summaries and compacting flags first, then the sessions' pushes. */
  flush(): void {
    this.frameAsked = false;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    const { store } = this.deps;
    const compacting: Record<string, boolean> = {};
    for (const push of batch) {
      if (push.name === 'sessions.changed') store.getState().upsertSummary(push.payload.summary);
      // The last word in the frame wins: a summary that started and ended within it is done.
      else if (push.name === 'session.compacting') compacting[push.payload.id] = push.payload.compacting;
    }
    if (Object.keys(compacting).length > 0) store.getState().setCompacting(compacting);
    this.deps.fold(batch);
  }
}
