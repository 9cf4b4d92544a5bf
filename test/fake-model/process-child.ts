/**
 * The fake model server in a process of its own, driven over Node IPC by
 * fake-model-process.ts. Benchmarks use it so the server's work (reading, counting and
 * answering ever-longer requests) is not counted as the app's time or memory.
 */
import { startFakeModel, type FakeModelOptions, type FakeReply } from './server.js';

type Message =
  | { enqueue: FakeReply[] }
  | { pending: number }
  | { stats: number }
  | { contextWindow: number | null }
  | { close: true };

const options = JSON.parse(process.argv[2] ?? '{}') as Omit<FakeModelOptions, 'keepBodies'>;
const fake = await startFakeModel({ ...options, keepBodies: false });
process.send?.({ ready: { anthropicBaseURL: fake.anthropicBaseURL, openaiBaseURL: fake.openaiBaseURL } });
process.on('message', (message: Message) => {
  if ('enqueue' in message) fake.enqueue(...message.enqueue);
  else if ('pending' in message)
    process.send?.({ pending: fake.pending(), requests: fake.requests.length, id: message.pending });
  else if ('stats' in message) process.send?.({ stats: fake.stats(), id: message.stats });
  // IPC carries JSON, where undefined cannot travel: null removes the window.
  else if ('contextWindow' in message) fake.setContextWindow(message.contextWindow ?? undefined);
  else void fake.close().then(() => process.exit(0));
});
