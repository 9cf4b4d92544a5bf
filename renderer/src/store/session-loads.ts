/**
 * Every open tab shows a loaded session: loading follows the tabs, not the components. A
 * session loads once at a time with `session.state`; the pushes that arrive meanwhile are
 * held (see PushQueue) and folded after its log. A load that failed is not retried on every
 * store change, only after the session list is read again.
 */
import type { Push } from '../../../shared/contract';
import type { RendererApi } from '../api/types';
import type { AppStore } from './app-store';

export interface SessionLoadsDeps {
  store: AppStore;
  api: RendererApi;
  report: (text: string) => void;
  /** Folds the pushes held during a load into the session just loaded. */
  fold: (pushes: Push[]) => void;
}

export class SessionLoads {
  /** Sessions being loaded, each with the pushes that arrived meanwhile. */
  private readonly loading = new Map<string, Push[]>();
  private readonly failed = new Set<string>();

  constructor(private readonly deps: SessionLoadsDeps) {}

  heldFor(id: string): Push[] | undefined {
    return this.loading.get(id);
  }

  /** The session list was read again: a failed load may be tried once more. */
  forgetFailures(): void {
    this.failed.clear();
  }

  /** Loads every open tab now and whenever the tabs or the sessions change; returns the way to stop. */
  followTabs(): () => void {
    const off = this.deps.store.subscribe((state, prev) => {
      if (state.openIds !== prev.openIds || state.sessions !== prev.sessions) this.loadOpenTabs();
    });
    this.loadOpenTabs();
    return off;
  }

  async load(id: string): Promise<void> {
    if (this.loading.has(id)) return;
    this.loading.set(id, []);
    const { store, api, report, fold } = this.deps;
    try {
      const reply = await api['session.state']({ id });
      if (!reply.ok) {
        this.failed.add(id);
        return report(`Could not open the session: ${reply.error}`);
      }
      store.getState().sessionLoaded(reply.data.summary, reply.data.events);
      const held = this.loading.get(id) ?? [];
      this.loading.delete(id);
      if (held.length > 0) fold(held);
    } finally {
      this.loading.delete(id);
    }
  }

  private loadOpenTabs(): void {
    const { openIds, sessions } = this.deps.store.getState();
    for (const id of openIds) if (sessions[id] && !sessions[id].state && !this.failed.has(id)) void this.load(id);
  }
}
