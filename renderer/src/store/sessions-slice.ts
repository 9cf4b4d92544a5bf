/**
 * Sessions as the window knows them: every summary from `sessions.list`, and for the
 * sessions it has loaded, the state folded with shared/reducer.ts, the text the live turn
 * is streaming, and live command output. The fold itself lives in push-batch.ts.
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
  /** What the live turn's current step streamed so far (cleared by its assistant_text or turn_ended). */
  streaming: { turnId: string; text: string } | null;
  /** Live output of running commands, by toolCallId (dropped once the result is in). */
  liveOutput: Record<string, LiveOutput>;
}

export interface SessionsSlice {
  sessions: Record<string, SessionEntry>;
  /** Replaces the summaries; sessions the list no longer has are forgotten. */
  setSummaries(list: SessionSummary[]): void;
  upsertSummary(summary: SessionSummary): void;
  /** A session's whole log arrived (`session.state`): fold it from the start. */
  sessionLoaded(summary: SessionSummary, events: SessionEvent[]): void;
  /** Replaces entries after a batch of pushes was folded (push-batch.ts). */
  replaceEntries(entries: Record<string, SessionEntry>): void;
}

export function emptyEntry(summary: SessionSummary): SessionEntry {
  return { summary, state: null, streaming: null, liveOutput: {} };
}

export const createSessionsSlice: StateCreator<AppState, [], [], SessionsSlice> = (set) => ({
  sessions: {},
  setSummaries: (list) =>
    set((s) => {
      const sessions: Record<string, SessionEntry> = {};
      for (const summary of list) {
        const prev = s.sessions[summary.id];
        sessions[summary.id] = prev ? { ...prev, summary } : emptyEntry(summary);
      }
      return { sessions };
    }),
  upsertSummary: (summary) =>
    set((s) => {
      const prev = s.sessions[summary.id];
      return { sessions: { ...s.sessions, [summary.id]: prev ? { ...prev, summary } : emptyEntry(summary) } };
    }),
  sessionLoaded: (summary, events) =>
    set((s) => {
      const prev = s.sessions[summary.id];
      const entry: SessionEntry = {
        summary,
        state: foldEvents(events),
        streaming: prev?.streaming ?? null,
        liveOutput: prev?.liveOutput ?? {},
      };
      return { sessions: { ...s.sessions, [summary.id]: entry } };
    }),
  replaceEntries: (entries) => set((s) => ({ sessions: { ...s.sessions, ...entries } })),
});
