/**
 * Keeps the store in step with the app: pushes are queued and folded once per animation
 * frame, a gap in a session's seqs is filled with `session.events {sinceSeq}`, a dropped
 * connection is caught up when it comes back, and every open tab's session gets loaded.
 * `session.compacting` sets a flag per session in the same frame's batch.
 */
import type { Push } from '../../../shared/contract';
import type { RendererApi } from '../api/types';
import { markCardEvent } from './card-paint';
import type { AppStore } from './app-store';
import { foldCaughtUp, foldPushes, type FoldResult } from './push-batch';

export type FrameScheduler = (callback: () => void) => void;

export interface StoreSync {
  /** Lists sessions and reads settings; resolves when both arrived. */
  start(): Promise<void>;
  load(id: string): Promise<void>;
  catchUp(id: string): Promise<void>;
  /** Folds what is queued now, without waiting for the frame (tests, and before unload). */
  flush(): void;
  dispose(): void;
}

/** The pushes the store folds; terminal and shell pushes have their own listeners. */
const STORE_PUSHES = new Set<Push['name']>([
  'session.event',
  'session.delta',
  'session.output',
  'sessions.changed',
  'session.compacting',
]);

const nextFrame: FrameScheduler = (callback) => {
  requestAnimationFrame(() => callback());
};

export function connectStore(store: AppStore, api: RendererApi, schedule: FrameScheduler = nextFrame): StoreSync {
  let queued: Push[] = [];
  let frameAsked = false;
  const loading = new Map<string, Push[]>();
  const catchingUp = new Set<string>();
  /** Gaps seen while a catch-up was in flight: run once more after it. */
  const catchUpAgain = new Set<string>();
  /** Loads that failed are not retried on every store change, only after a refresh. */
  const failedLoads = new Set<string>();
  let dropped = false;

  const report = (text: string) => store.getState().showNotice({ kind: 'error', text });

  const apply = (result: FoldResult) => {
    store.getState().replaceEntries(result.changed, result.live);
    for (const id of result.gaps.keys()) void sync.catchUp(id);
  };

  const flush = () => {
    frameAsked = false;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const compacting: Record<string, boolean> = {};
    for (const push of batch) {
      if (push.name === 'sessions.changed') store.getState().upsertSummary(push.payload.summary);
      // The last word in the frame wins: a summary that started and ended within it is done.
      else if (push.name === 'session.compacting') compacting[push.payload.id] = push.payload.compacting;
    }
    if (Object.keys(compacting).length > 0) store.getState().setCompacting(compacting);
    const { sessions, live } = store.getState();
    apply(foldPushes(sessions, live, batch));
  };

  const onPush = (push: Push) => {
    if (!STORE_PUSHES.has(push.name)) return;
    // Marked on arrival, so the card-paint measure includes the wait for the frame's fold.
    if (push.name === 'session.event' && push.payload.event.type === 'card') markCardEvent(push.payload.event.cardId);
    // The compacting flag is not in the log, so a load cannot replay it: it is never held.
    const id = 'id' in push.payload && push.name !== 'session.compacting' ? push.payload.id : null;
    const held = id !== null ? loading.get(id) : undefined;
    // A session being loaded keeps its pushes until its log arrived; duplicates fold away by seq.
    if (held) held.push(push);
    else queued.push(push);
    if (!frameAsked) {
      frameAsked = true;
      schedule(flush);
    }
  };

  const refresh = async () => {
    const list = await api['sessions.list']({});
    if (!list.ok) return report(`Could not list sessions: ${list.error}`);
    failedLoads.clear();
    store.getState().setSummaries(list.data);
    // A window that connects while a summary is being written missed the push that began it.
    store.getState().setCompacting(Object.fromEntries(list.data.map((s) => [s.id, s.compacting === true])));
    store.getState().keepTabs(new Set(list.data.map((s) => s.id)));
  };

  const sync: StoreSync = {
    async start() {
      const [settings] = await Promise.all([api['settings.get']({}), refresh()]);
      if (settings.ok) store.getState().setSettings(settings.data);
      else report(`Could not read settings: ${settings.error}`);
    },
    async load(id) {
      if (loading.has(id)) return;
      loading.set(id, []);
      try {
        const reply = await api['session.state']({ id });
        if (!reply.ok) {
          failedLoads.add(id);
          return report(`Could not open the session: ${reply.error}`);
        }
        store.getState().sessionLoaded(reply.data.summary, reply.data.events);
        const held = loading.get(id) ?? [];
        loading.delete(id);
        const { sessions, live } = store.getState();
        if (held.length > 0) apply(foldPushes(sessions, live, held));
      } finally {
        loading.delete(id);
      }
    },
    async catchUp(id) {
      const entry = store.getState().sessions[id];
      if (!entry?.state) return;
      if (catchingUp.has(id)) {
        catchUpAgain.add(id);
        return;
      }
      catchingUp.add(id);
      try {
        const reply = await api['session.events']({ id, sinceSeq: entry.state.lastSeq });
        if (!reply.ok) return report(`Could not catch up with the session: ${reply.error}`);
        const { sessions, live } = store.getState();
        const now = sessions[id];
        if (!now?.state) return;
        const result = foldCaughtUp(now, live[id], reply.data.events);
        store.getState().replaceEntries(result.changed, result.live);
      } finally {
        catchingUp.delete(id);
        if (catchUpAgain.delete(id)) void sync.catchUp(id);
      }
    },
    flush,
    dispose() {
      unsubscribe();
      offConnection?.();
      offTabs();
    },
  };

  const unsubscribe = api.subscribe(onPush);
  const offConnection = api.onConnection?.((state) => {
    store.getState().setConnection(state);
    if (state !== 'connected') {
      dropped = true;
      // The push that ends a summary may be lost with the socket, and nothing can ask again.
      store.getState().clearCompacting();
      return;
    }
    if (!dropped) return;
    dropped = false;
    // Settings too: the app may have restarted with another model or keys.
    void sync.start().then(() => {
      for (const [id, entry] of Object.entries(store.getState().sessions)) if (entry.state) void sync.catchUp(id);
    });
  });

  // Every open tab shows a loaded session; loading follows the tabs, not the components.
  const loadOpenTabs = () => {
    const { openIds, sessions } = store.getState();
    for (const id of openIds) if (sessions[id] && !sessions[id].state && !failedLoads.has(id)) void sync.load(id);
  };
  const offTabs = store.subscribe((state, prev) => {
    if (state.openIds !== prev.openIds || state.sessions !== prev.sessions) loadOpenTabs();
  });
  loadOpenTabs();

  return sync;
}
