/**
 * Sessions as the window knows them: every summary from `sessions.list`, and for the
 * sessions it has loaded, the state folded with shared/reducer.ts. What is live but not in
 * the log (the text the turn is streaming, running commands' output) is kept apart in
 * `live`, so a streamed word changes `live` only and the sidebar, tabs and waiting list,
 * which read `sessions`, do not render again. The fold itself lives in push-batch.ts.
 */
import type { StateCreator } from 'zustand';
import type { SessionSummary } from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import { foldEvents, type SessionState } from '../../../shared/reducer';
import type { LiveOutput } from './live-output';
import type { AppState } from './app-store';

export interface SessionEntry {
  summary: SessionSummary;
  /** Null until `session.state` loaded it. */
  state: SessionState | null;
}

export interface LiveView {
  /** What the live turn's current step streamed so far (cleared by its assistant_text or turn_ended). */
  streaming: { turnId: string; text: string } | null;
  /** Live output of running commands, by toolCallId (dropped once the result is in). */
  liveOutput: Record<string, LiveOutput>;
}

export const NO_LIVE: LiveView = { streaming: null, liveOutput: {} };

export interface SessionsSlice {
  sessions: Record<string, SessionEntry>;
  live: Record<string, LiveView>;
  /**
   * Sessions whose history is being summarised right now (the `session.compacting` push):
   * the log says only when a summary is done, so this is what shows the wait.
   */
  compacting: Readonly<Record<string, true>>;
  /** Replaces the summaries; sessions the list no longer has are forgotten. */
  setSummaries(list: SessionSummary[]): void;
  upsertSummary(summary: SessionSummary): void;
  /** A session's whole log arrived (`session.state`): fold it from the start. */
  sessionLoaded(summary: SessionSummary, events: SessionEvent[]): void;
  /** Replaces entries and live views after a batch of pushes was folded (push-batch.ts). */
  replaceEntries(entries: Record<string, SessionEntry>, live?: Record<string, LiveView>): void;
  /** Sets or clears the compacting flag of each session named. */
  setCompacting(flags: Readonly<Record<string, boolean>>): void;
  /** A dropped connection may have missed the push that ends a summary: forget every flag. */
  clearCompacting(): void;
}

export const createSessionsSlice: StateCreator<AppState, [], [], SessionsSlice> = (set) => ({
  sessions: {},
  live: {},
  compacting: {},
  setSummaries: (list) =>
    set((s) => {
      const sessions: Record<string, SessionEntry> = {};
      for (const summary of list) {
        const prev = s.sessions[summary.id];
        sessions[summary.id] = prev ? { ...prev, summary } : { summary, state: null };
      }
      return { sessions };
    }),
  upsertSummary: (summary) =>
    set((s) => {
      const prev = s.sessions[summary.id];
      return { sessions: { ...s.sessions, [summary.id]: prev ? { ...prev, summary } : { summary, state: null } } };
    }),
  sessionLoaded: (summary, events) =>
    set((s) => ({ sessions: { ...s.sessions, [summary.id]: { summary, state: foldEvents(events) } } })),
  replaceEntries: (entries, live) =>
    set((s) => {
      const next: Partial<SessionsSlice> = {};
      if (Object.keys(entries).length > 0) next.sessions = { ...s.sessions, ...entries };
      if (live && Object.keys(live).length > 0) next.live = { ...s.live, ...live };
      return next;
    }),
  setCompacting: (flags) =>
    set((s) => {
      const compacting: Record<string, true> = { ...s.compacting };
      for (const [id, on] of Object.entries(flags)) {
        if (on) compacting[id] = true;
        else delete compacting[id];
      }
      return { compacting };
    }),
  clearCompacting: () => set((s) => (Object.keys(s.compacting).length > 0 ? { compacting: {} } : s)),
});
