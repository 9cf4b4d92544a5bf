/**
 * A stand-in for diff-worker.ts in the CardDiffer tests: answers every request with a
 * marker, so a test can tell a diff computed in the worker from one computed in place.
 */
import { parentPort } from 'node:worker_threads';
import type { DiffReply, DiffRequest } from '../../../../../electron/core/diff/diff-messages.js';

export const FROM_WORKER = 'computed in the worker';

const port = parentPort;
port?.on('message', ({ id, after }: DiffRequest) => {
  const reply: DiffReply = {
    id,
    diff: { diff: FROM_WORKER, truncated: false, diffBytes: 0, proposalBytes: after.length, beforeBytes: null },
  };
  port.postMessage(reply);
});
