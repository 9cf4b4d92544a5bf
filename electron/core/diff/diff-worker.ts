/**
 * Worker thread entry: computes card diffs posted by CardDiffer, so a large or scrambled
 * pair never holds the main process's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { computeCardDiff } from './bytes-card-diff.js';
import type { DiffReply, DiffRequest } from './diff-messages.js';

const port = parentPort;
if (port) {
  port.on('message', (request: DiffRequest) => port.postMessage(answer(request)));
}

function answer({ id, path, before, after }: DiffRequest): DiffReply {
  try {
    return { id, diff: computeCardDiff({ path, before: before && asBuffer(before), after: asBuffer(after) }) };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Buffers arrive as plain Uint8Arrays after structured cloning; view them, do not copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
