/**
 * Append throughput of the session log under each durability, against raw writes of the
 * same line on a plain file handle:
 * - 'fsync' awaited one at a time (how the runner appends): one fdatasync per event.
 *   Reference: write + fdatasync per line. Target <= 1.5x.
 * - 'fsync' with 64 appends in flight: the group commit shares one fdatasync per batch.
 * - 'none': the line reaches the OS page cache (survives kill -9, not power loss).
 *   Reference: a bare write per line. Target <= 3x (JSON, seq, promise chain).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionLog, type Durability } from '../../electron/core/log/session-log.js';
import type { EventPayload } from '../../shared/events.js';
import { measure, reportRatio } from './measure.js';

const payload: EventPayload = {
  type: 'assistant_text',
  turnId: 'turn-1',
  text: 'I will read the failing test, then change the function it calls. '.repeat(4),
};
const line = `${JSON.stringify({ seq: 1, ts: new Date().toISOString(), ...payload })}\n`;
const BATCH = 64;

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-append-'));
let files = 0;
const freshFile = () => path.join(dir, `events-${files++}.jsonl`);

/** Milliseconds per event for `iterations` calls of `once`, each appending `perCall` events. */
async function perEvent(once: () => Promise<unknown>, iterations: number, perCall = 1): Promise<number> {
  return (await measure(once, iterations)).p50 / perCall;
}

async function ourLog(durability: Durability, iterations: number, inFlight: number): Promise<number> {
  const log = new SessionLog({ file: freshFile(), durability });
  const once = () => Promise.all(Array.from({ length: inFlight }, () => log.append(payload)));
  const ms = await perEvent(once, iterations, inFlight);
  await log.close();
  return ms;
}

async function rawHandle(sync: boolean, iterations: number): Promise<number> {
  const handle = await fs.open(freshFile(), 'a');
  const once = async () => {
    await handle.write(line);
    if (sync) await handle.datasync();
  };
  const ms = await perEvent(once, iterations);
  await handle.close();
  return ms;
}

const rate = (msPerEvent: number) => `${Math.round(1000 / msPerEvent).toLocaleString('en-US')} events/s`;

try {
  const rawSync = await rawHandle(true, 1000);
  const fsyncOne = await ourLog('fsync', 1000, 1);
  const fsyncBatch = await ourLog('fsync', 100, BATCH);
  const rawWrite = await rawHandle(false, 20000);
  const none = await ourLog('none', 20000, 1);

  console.log(`fsync, awaited one at a time: ${rate(fsyncOne)}   (raw write+fdatasync: ${rate(rawSync)})`);
  console.log(`fsync, ${BATCH} in flight (group commit): ${rate(fsyncBatch)}`);
  console.log(`none, awaited one at a time: ${rate(none)}   (raw write: ${rate(rawWrite)})`);
  reportRatio('append, fsync, one at a time vs raw write+fdatasync', fsyncOne, rawSync, 1.5);
  reportRatio('append, none vs raw write', none, rawWrite, 3);
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
