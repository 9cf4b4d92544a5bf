/** Starts test/fake-model/process-child.ts in its own process and drives it over IPC. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FakeReply } from './server.js';

export interface FakeModelProcess {
  anthropicBaseURL: string;
  openaiBaseURL: string;
  enqueue(...replies: FakeReply[]): void;
  /** Scripted replies not consumed yet, and requests received so far. */
  status(): Promise<{ pending: number; requests: number }>;
  close(): Promise<void>;
}

export async function startFakeModelProcess(): Promise<FakeModelProcess> {
  const child = fork(fileURLToPath(new URL('./process-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ anthropicBaseURL: string; openaiBaseURL: string }>((resolve, reject) => {
    child.once('message', (m: { ready: { anthropicBaseURL: string; openaiBaseURL: string } }) => resolve(m.ready));
    child.once('exit', (code) => reject(new Error(`fake model process exited with ${code}`)));
  });
  let nextId = 0;
  return {
    ...ready,
    enqueue: (...replies) => child.send({ enqueue: replies }),
    status: () =>
      new Promise((resolve) => {
        const id = nextId++;
        const onMessage = (m: { id?: number; pending: number; requests: number }) => {
          if (m.id !== id) return;
          child.off('message', onMessage);
          resolve({ pending: m.pending, requests: m.requests });
        };
        child.on('message', onMessage);
        child.send({ pending: id });
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ close: true });
      }),
  };
}
