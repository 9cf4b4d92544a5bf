/**
 * The external agents' cost at the gate (issue 33).
 *
 * One gated write through the gate's MCP tool — a real MCP SDK client, the session's
 * Unix socket, the MCP face, the gate (checkpoints both sides, the write, the log) — against
 * the same write through the native runner's step path: tool_call logged, `seam.gate.run`,
 * tool_result logged, with no socket and no protocol. Both in one session, whose write
 * card for the file was answered Allow for the session once, so no person is needed and
 * each call is gated by the grant. Target <= 1.5x (p50).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startGateHarness } from '../unit/electron/core/agents/gate-mcp-harness.js';
import { reportRatio } from './measure.js';

const ITERATIONS = 150;
const WARMUP = 10;

const g = await startGateHarness();
try {
  await fs.writeFile(path.join(g.h.workspace, 'bench.txt'), 'start\n');
  const turnId = await g.startTurn();
  const first = g.call('write_file', { path: 'bench.txt', content: 'granted\n' });
  const card = await g.h.event(g.id, 'card');
  await g.h.call('card.answer', { id: g.id, cardId: card.cardId, answer: 'allow_session' });
  if ((await first).isError) throw new Error('the first write was not allowed');

  const seam = g.driver.seams[0]!;
  let n = 0;
  const content = () => `line ${n++}\n`.repeat(50);

  const throughMcp = async () => {
    const r = await g.call('write_file', { path: 'bench.txt', content: content() });
    if (r.isError) throw new Error('a write through the MCP face failed');
  };
  const throughStep = async () => {
    const toolCallId = seam.newId();
    const args = { path: 'bench.txt', content: content() };
    await seam.record.append({ type: 'tool_call', turnId, toolCallId, tool: 'write_file', args });
    const r = await seam.gate.run({ turnId, toolCallId, tool: 'write_file', args });
    const output = r.ok ? r.output : r.error;
    await seam.record.append({ type: 'tool_result', turnId, toolCallId, tool: 'write_file', ok: r.ok, output });
    if (!r.ok) throw new Error('a write through the step path failed');
  };

  // Each pair runs one of each, in turn first: a gated write costs more as the turn's log
  // and checkpoints grow, and other load comes and goes, so both sides must share the drift.
  const ours: number[] = [];
  const reference: number[] = [];
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const order = i % 2 === 0 ? [throughStep, throughMcp] : [throughMcp, throughStep];
    for (const fn of order) {
      const t0 = performance.now();
      await fn();
      if (i >= WARMUP) (fn === throughMcp ? ours : reference).push(performance.now() - t0);
    }
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  if ((await g.events('card')).length !== 1) throw new Error('a write raised a card: the grant did not hold');
  reportRatio('gated write, MCP face vs native step (p50)', p50(ours), p50(reference), 1.5);
  await g.endTurn();
} finally {
  await g.close();
}
