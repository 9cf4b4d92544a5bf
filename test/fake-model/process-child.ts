/**
 * The fake model server in a process of its own, driven over Node IPC by
 * fake-model-process.ts. Benchmarks use it so the server's work (reading and answering
 * ever-longer requests) is not counted as the app's time or memory.
 */
import { startFakeModel, type FakeReply } from './server.js';

type Message = { enqueue: FakeReply[] } | { pending: number } | { close: true };

const fake = await startFakeModel({ keepBodies: false });
process.send?.({ ready: { anthropicBaseURL: fake.anthropicBaseURL, openaiBaseURL: fake.openaiBaseURL } });
process.on('message', (message: Message) => {
  if ('enqueue' in message) fake.enqueue(...message.enqueue);
  else if ('pending' in message)
    process.send?.({ pending: fake.pending(), requests: fake.requests.length, id: message.pending });
  else void fake.close().then(() => process.exit(0));
});
