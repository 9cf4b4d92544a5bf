/**
 * A loaded session's missing events, asked with `session.events {sinceSeq}` from the last
 * seq the store has: after a gap in the pushes' seqs, or a dropped connection. One request
 * per session at a time; a gap seen meanwhile asks once more after it, from where it got.
 */
import type { RendererApi } from '../api/types';
import type { AppStore } from './app-store';
import { foldCaughtUp } from './push-batch';

export interface SessionCatchUpDeps {
  store: AppStore;
  api: RendererApi;
  report: (text: string) => void;
}

export class SessionCatchUp {
  private readonly asking = new Set<string>();
  /** Gaps seen while a catch-up was in flight: run once more after it. */
  private readonly again = new Set<string>();

  constructor(private readonly deps: SessionCatchUpDeps) {}

  async run(id: string): Promise<void> {
    const { store, api, report } = this.deps;
    const entry = store.getState().sessions[id];
    if (!entry?.state) return;
    if (this.asking.has(id)) {
      this.again.add(id);
      return;
    }
    this.asking.add(id);
    try {
      const reply = await api['session.events']({ id, sinceSeq: entry.state.lastSeq });
      if (!reply.ok) return report(`Could not catch up with the session: ${reply.error}`);
      const { sessions, live } = store.getState();
      const now = sessions[id];
      if (!now?.state) return;
      const result = foldCaughtUp(now, live[id], reply.data.events);
      store.getState().replaceEntries(result.changed, result.live);
    } finally {
      this.asking.delete(id);
      if (this.again.delete(id)) void this.run(id);
    }
  }

  /** Every loaded session, as after a reconnect. */
  runAll(): void {
    for (const [id, entry] of Object.entries(this.deps.store.getState().sessions)) if (entry.state) void this.run(id);
  }
}
