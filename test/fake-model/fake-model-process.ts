/** Starts test/fake-model/process-child.ts in its own process and drives it over IPC. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FakeModelOptions, FakeModelStats, FakeReply } from './server.js';

export interface FakeModelProcess {
  anthropicBaseURL: string;
  openaiBaseURL: string;
  enqueue(...replies: FakeReply[]): void;
  /** Scripted replies not consumed yet, and requests received so far. */
  status(): Promise<{ pending: number; requests: number }>;
  /** Totals over every request so far (FakeModel.stats). */
  stats(): Promise<FakeModelStats>;
  /** Changes the context window for the requests to come; undefined removes it. */
  setContextWindow(tokens: number | undefined): void;
  close(): Promise<void>;
}

/** The child never keeps request bodies; the other options are the server's. */
export type FakeModelProcessOptions = Omit<FakeModelOptions, 'keepBodies'>;

export async function startFakeModelProcess(options: FakeModelProcessOptions = {}): Promise<FakeModelProcess> {
  const child = fork(fileURLToPath(new URL('./process-child.ts', import.meta.url)), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ anthropicBaseURL: string; openaiBaseURL: string }>((resolve, reject) => {
    child.once('message', (m: { ready: { anthropicBaseURL: string; openaiBaseURL: string } }) => resolve(m.ready));
    child.once('exit', (code) => reject(new Error(`fake model process exited with ${code}`)));
  });
  let nextId = 0;
  /** Sends a question tagged with a fresh id and resolves with the answer carrying it. */
  function ask<T>(question: (id: number) => object): Promise<T> {
    return new Promise((resolve) => {
      const id = nextId++;
      const onMessage = (m: { id?: number }) => {
        if (m.id !== id) return;
        child.off('message', onMessage);
        resolve(m as T);
      };
      child.on('message', onMessage);
      child.send(question(id));
    });
  }
  return {
    ...ready,
    enqueue: (...replies) => child.send({ enqueue: replies }),
    status: async () => {
      const answer = await ask<{ pending: number; requests: number }>((id) => ({ pending: id }));
      return { pending: answer.pending, requests: answer.requests };
    },
    stats: async () => (await ask<{ stats: FakeModelStats }>((id) => ({ stats: id }))).stats,
    setContextWindow: (tokens) => child.send({ contextWindow: tokens ?? null }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ close: true });
      }),
  };
}
