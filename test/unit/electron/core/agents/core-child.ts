/**
 * A whole core (createCore) in a process of its own, so a test can SIGKILL it as a crash
 * would: the contract's calls come in over the IPC channel (`{id, name, payload}`) and their
 * replies go back (`{id, reply}`), as a transport would carry them. External agents are
 * pointed at a model endpoint on this machine (argv[2]'s `modelPort`).
 *
 * Run with `node --import tsx core-child.ts '<json config>'` and an IPC channel (fork).
 */
import { createCore } from '../../../../../electron/core/core.js';

interface ChildConfig {
  dataDir: string;
  home: string;
  env: Record<string, string>;
  modelPort: number;
  baseUrlVariable: string;
}

const config = JSON.parse(process.argv[2]!) as ChildConfig;

const core = await createCore({
  dataDir: config.dataDir,
  env: config.env,
  home: config.home,
  cipher: null,
  onUnexpected: (err) => console.error('unexpected', err),
  agentModel: () => ({ endpoint: { port: config.modelPort }, baseUrlVariable: config.baseUrlVariable }),
});

process.on('message', (message: { id: number; name: string; payload: unknown }) => {
  void core.host.call(message.name, message.payload).then((reply) => process.send!({ id: message.id, reply }));
});
// Disconnected (the test ended without killing it): let go as a quit would.
process.on('disconnect', () => void core.dispose().then(() => process.exit(0)));
process.send!({ ready: true });
