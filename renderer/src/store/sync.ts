/**
 * Keeps the store in step with the app, from four parts: pushes are queued and folded once
 * per animation frame (PushQueue), every open tab's session gets loaded (SessionLoads), a
 * gap in a session's seqs is filled with `session.events {sinceSeq}` (SessionCatchUp), and
 * a dropped connection is caught up when it comes back (followConnection).
 * `session.compacting` sets a flag per session in the same frame's batch.
 */
import type { Push } from '../../../shared/contract';
import type { RendererApi } from '../api/types';
import type { AppStore } from './app-store';
import { foldPushes } from './push-batch';
import { PushQueue, type FrameScheduler } from './push-queue';
import { SessionCatchUp } from './session-catch-up';
import { SessionLoads } from './session-loads';

export type { FrameScheduler } from './push-queue';

export interface StoreSync {
  /** Lists sessions and reads settings; resolves when both arrived. */
  start(): Promise<void>;
  load(id: string): Promise<void>;
  catchUp(id: string): Promise<void>;
  /** Folds what is queued now, without waiting for the frame (tests, and before unload). */
  flush(): void;
  dispose(): void;
}

const nextFrame: FrameScheduler = (callback) => {
  requestAnimationFrame(() => callback());
};

export function connectStore(store: AppStore, api: RendererApi, schedule: FrameScheduler = nextFrame): StoreSync {
  const report = (text: string) => store.getState().showNotice({ kind: 'error', text });
  const catchUp = new SessionCatchUp({ store, api, report });
  /** Folds session pushes; where their seqs leave a gap, the session catches up. */
  const fold = (pushes: Push[]) => {
    const { sessions, live } = store.getState();
    const result = foldPushes(sessions, live, pushes);
    store.getState().replaceEntries(result.changed, result.live);
    for (const id of result.gaps.keys()) void catchUp.run(id);
  };
  const loads = new SessionLoads({ store, api, report, fold });
  const queue = new PushQueue({ store, schedule, heldFor: (id) => loads.heldFor(id), fold });

  const start = async () => {
    const [settings] = await Promise.all([api['settings.get']({}), listSessions(store, api, report, loads)]);
    if (settings.ok) store.getState().setSettings(settings.data);
    else report(`Could not read settings: ${settings.error}`);
  };

  const unsubscribe = api.subscribe((push) => queue.offer(push));
  const offConnection = followConnection(store, api, () => {
    // Settings too: the app may have restarted with another model or keys.
    void start().then(() => catchUp.runAll());
  });
  const offTabs = loads.followTabs();

  return {
    start,
    load: (id) => loads.load(id),
    catchUp: (id) => catchUp.run(id),
    flush: () => queue.flush(),
    dispose() {
      unsubscribe();
      offConnection?.();
      offTabs();
    },
  };
}

/** The session list, read again: summaries, compacting flags, and tabs of sessions gone. */
async function listSessions(
  store: AppStore,
  api: RendererApi,
  report: (text: string) => void,
  loads: SessionLoads,
): Promise<void> {
  const list = await api['sessions.list']({});
  if (!list.ok) return report(`Could not list sessions: ${list.error}`);
  loads.forgetFailures();
  store.getState().setSummaries(list.data);
  // A window that connects while a summary is being written missed the push that began it.
  store.getState().setCompacting(Object.fromEntries(list.data.map((s) => [s.id, s.compacting === true])));
  store.getState().keepTabs(new Set(list.data.map((s) => s.id)));
}

/**
 * Shows the connection's state, and calls `back` when it comes back after a drop (not on
 * the first connect). Undefined when the transport has no connection to follow (the preload).
 */
function followConnection(store: AppStore, api: RendererApi, back: () => void): (() => void) | undefined {
  let dropped = false;
  return api.onConnection?.((state) => {
    store.getState().setConnection(state);
    if (state !== 'connected') {
      dropped = true;
      // The push that ends a summary may be lost with the socket, and nothing can ask again.
      store.getState().clearCompacting();
      return;
    }
    if (!dropped) return;
    dropped = false;
    back();
  });
}
