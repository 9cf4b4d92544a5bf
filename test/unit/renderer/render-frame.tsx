/**
 * Renders a piece of the frame the way main.tsx does (api and store providers), with a
 * fake api and a fresh store in memory. Sessions can be seeded as if loaded.
 */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { SessionSummary } from '../../../shared/contract';
import type { EventPayload } from '../../../shared/events';
import type { CardEvent, QuestionEvent } from '../../../shared/reducer';
import { ApiProvider } from '../../../renderer/src/api/api-context';
import { createAppStore, StoreProvider, type AppStore } from '../../../renderer/src/store/app-store';
import { createFakeApi, eventsFrom, summaryOf, type FakeApi, type FakeApiOptions } from './fake-api';

export function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

export interface Frame {
  fake: FakeApi;
  store: AppStore;
}

export function renderFrame(ui: ReactElement, options: FakeApiOptions & Partial<Frame> = {}) {
  const fake = options.fake ?? createFakeApi(options);
  const store = options.store ?? createAppStore(memoryStorage());
  const result = render(
    <ApiProvider api={fake.api}>
      <StoreProvider store={store}>{ui}</StoreProvider>
    </ApiProvider>,
  );
  return { ...result, fake, store };
}

/** Puts a loaded session into the store, its log being these payloads (seq from 1). */
export function seedSession(
  store: AppStore,
  summary: Partial<SessionSummary> & { id: string },
  payloads: EventPayload[] = [],
  startMinute = 0,
): void {
  const events = eventsFrom(1, payloads).map((e, i) => ({
    ...e,
    ts: new Date(Date.UTC(2026, 11, 3, 4, startMinute + i)).toISOString(),
  }));
  store.getState().sessionLoaded(summaryOf(summary), events);
}

export function writeCard(cardId: string, path: string, turnId = 't1'): Omit<CardEvent, 'seq' | 'ts'> {
  return {
    type: 'card',
    turnId,
    toolCallId: `call-${cardId}`,
    cardId,
    body: {
      kind: 'write',
      tool: 'write_file',
      path,
      inside: true,
      creates: true,
      diff: `--- /dev/null\n+++ ${path}\n@@ -0,0 +1 @@\n+hi\n`,
      diffTruncated: false,
      diffBytes: 40,
      proposalBytes: 3,
      beforeBytes: null,
      digest: 'absent',
      proposalBlob: 'b'.repeat(64),
    },
    grant: { kind: 'write', path },
    scope: `Allow writes to ${path} for the rest of this session.`,
  };
}

export function question(questionId: string, text: string, turnId = 't1'): Omit<QuestionEvent, 'seq' | 'ts'> {
  return { type: 'question', turnId, toolCallId: `call-${questionId}`, questionId, question: text };
}

export const started = (turnId = 't1', messageId = 'm1'): EventPayload[] => [
  { type: 'user_message', messageId, text: 'please' },
  { type: 'turn_started', turnId, messageId },
];
