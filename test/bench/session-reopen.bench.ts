/**
 * Reopening a long session: a fresh SessionStore opens a session of 100,000 events and
 * folds it to full state (read, parse, check every line, fold with shared/reducer.ts).
 *
 * Two references, measured interleaved with ours round by round:
 * - fs.readFile of the same events.jsonl (target <= 4x). From the page cache that is a
 *   memcpy (about 10 ms for 30 MiB here), while JSON.parse runs at a few hundred MB/s, so
 *   no reader that parses the JSON can meet this one; it is kept as the stated target.
 * - readFile + decode + JSON.parse of every line, without checks or fold: the floor any
 *   JSONL reader pays. Ours against it (target <= 1.5x) is the cost of the line checks,
 *   the torn-tail handling and the fold.
 *
 * The events are a representative mix, ten to a turn: user message, turn start, assistant
 * text, a read and its result, a write with its card and answer, result, turn end.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionStore } from '../../electron/core/log/session-store.js';
import type { EventPayload, SessionEvent } from '../../shared/events.js';
import { measure, reportRatio } from './measure.js';

const EVENTS = 100_000;
const ROUNDS = 9;

function turnOf(n: number): EventPayload[] {
  const turnId = `turn-${n}`;
  const path = `/home/dev/project/src/module-${n % 50}.ts`;
  return [
    { type: 'user_message', messageId: `m-${n}`, text: `Please make test ${n} pass without touching the fixtures.` },
    { type: 'turn_started', turnId, messageId: `m-${n}` },
    { type: 'assistant_text', turnId, text: 'Let me look at the failing test first. '.repeat(6) },
    { type: 'tool_call', turnId, toolCallId: `r-${n}`, tool: 'read_file', args: { path } },
    {
      type: 'tool_result',
      turnId,
      toolCallId: `r-${n}`,
      tool: 'read_file',
      ok: true,
      output: 'export const x = 1;\n'.repeat(40),
    },
    {
      type: 'tool_call',
      turnId,
      toolCallId: `w-${n}`,
      tool: 'write_file',
      args: { path, content: 'export const x = 2;\n'.repeat(10) },
    },
    {
      type: 'card',
      turnId,
      toolCallId: `w-${n}`,
      cardId: `k-${n}`,
      body: {
        kind: 'write',
        tool: 'write_file',
        path,
        inside: true,
        creates: false,
        diff: '@@ -1,3 +1,3 @@\n-export const x = 1;\n+export const x = 2;\n',
        diffTruncated: false,
        diffBytes: 58,
        proposalBytes: 200,
        beforeBytes: 800,
        digest: 'a'.repeat(64),
        proposalBlob: 'b'.repeat(64),
      },
      grant: { kind: 'write', path },
      scope: `Allow writes to ${path} for the rest of this session.`,
    },
    { type: 'card_answer', cardId: `k-${n}`, answer: n % 3 === 0 ? 'allow_session' : 'allow_once' },
    { type: 'result', turnId, summary: `Test ${n} passes now.` },
    { type: 'turn_ended', turnId, reason: 'finished' },
  ];
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function buildSession(dataDir: string): Promise<{ id: string; eventsFile: string; bytes: number }> {
  const store = new SessionStore({ dataDir });
  const session = await store.create({ workspace: '/home/dev/project', title: 'long', model: null });
  await session.close();
  const lines: string[] = [];
  for (let turn = 0; lines.length < EVENTS; turn++) {
    for (const payload of turnOf(turn)) {
      if (lines.length === EVENTS) break;
      const event = {
        seq: lines.length + 1,
        ts: new Date(Date.UTC(2025, 0, 1) + lines.length).toISOString(),
        ...payload,
      };
      lines.push(JSON.stringify(event as SessionEvent));
    }
  }
  const eventsFile = path.join(session.dir, 'events.jsonl');
  await fs.writeFile(eventsFile, `${lines.join('\n')}\n`);
  return { id: session.id, eventsFile, bytes: (await fs.stat(eventsFile)).size };
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-reopen-'));
try {
  const { id, eventsFile, bytes } = await buildSession(dataDir);
  console.log(`session: ${EVENTS} events, ${(bytes / 1024 / 1024).toFixed(1)} MiB`);

  const reopen = async () => {
    const session = await new SessionStore({ dataDir }).open(id);
    const state = await session.state();
    await session.close();
    if (state.lastSeq !== EVENTS) throw new Error(`folded ${state.lastSeq} events`);
  };
  const raw = () => fs.readFile(eventsFile);
  const parseOnly = async () => {
    const lines = new TextDecoder().decode(await fs.readFile(eventsFile)).split('\n');
    for (const line of lines) if (line) JSON.parse(line);
  };

  // Interleaved round by round, so a burst of load from elsewhere hits all three alike.
  for (const fn of [raw, parseOnly, reopen]) await measure(fn, 2, 0);
  const times = { raw: [] as number[], parseOnly: [] as number[], ours: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    times.raw.push((await measure(raw, 1, 0)).p50);
    times.parseOnly.push((await measure(parseOnly, 1, 0)).p50);
    times.ours.push((await measure(reopen, 1, 0)).p50);
  }
  const ours = median(times.ours);
  reportRatio('reopen 100k events to full state vs fs.readFile', ours, median(times.raw), 4);
  reportRatio('reopen 100k events to full state vs readFile+JSON.parse per line', ours, median(times.parseOnly), 1.5);
  console.log(`reopen throughput: ${((EVENTS / ours) * 1000).toFixed(0)} events/s (medians of ${ROUNDS} rounds)`);
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
