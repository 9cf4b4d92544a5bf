/**
 * `npm run bench -- context`: what the model's context costs, in one run.
 *
 * 1. Billed input. A 60-step turn of distinct 32 KiB reads through the whole core and the
 *    real Anthropic provider, against the fake model enforcing a 200k window and
 *    accounting the prompt cache as the API does. Billed at Anthropic's multipliers
 *    (uncached x1, cache write x1.25, cache read x0.1), summary calls included. Reference:
 *    the same conversation sent whole at every step with no cache and no budget (what the
 *    runner sent before the context room), posted to a second fake with no window and
 *    counted by the same tokenizer. Target <= 15%.
 * 2. Peak request against the window, over every request of (1). Target <= 100%, always.
 * 3. Step overhead: runner time from one step's reply to the next request (tools, logging,
 *    the context), in a session of 10,000 events against one of 100 events, 40 steps each.
 *    Target <= 1.5x.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore, type Core } from '../../electron/core/core.js';
import type { ChatClient } from '../../electron/core/chat/chat-client.js';
import { ProviderChatClient } from '../../electron/core/chat/provider-chat-client.js';
import type { ModelConfig } from '../../shared/contract.js';
import type { SessionEvent } from '../../shared/events.js';
import { startFakeModel, type FakeModel, type FakeReply, type RecordedRequest } from '../fake-model/server.js';
import { reportRatio, reportValue } from './measure.js';

const SLICE = 32 * 1024;
const STEPS = 60;
const WINDOW = 200_000;
const env = { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-bench-0000000000' };
const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-context-bench-')));
const workspace = path.join(root, 'ws');
await fs.mkdir(workspace);
await fs.writeFile(path.join(workspace, 'big.txt'), distinctLines(STEPS * SLICE));
await fs.writeFile(path.join(workspace, 'small.txt'), 'a short line of source code\n'.repeat(20));

function distinctLines(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `${i.toString(36).padStart(6, '0')} the quick brown fox ${(i * 7919) % 104729} jumps over lazy dogs\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

const isSummary = (r: RecordedRequest) => r.rawBody.includes('write a summary of this session so far');

function model(fake: FakeModel): ModelConfig {
  return { provider: 'anthropic', modelId: 'claude-sonnet-4-5', baseURL: fake.anthropicBaseURL, contextWindow: WINDOW };
}

async function core(dataDir: string, wrap: (inner: ChatClient) => ChatClient = (c) => c): Promise<Core> {
  return createCore({
    dataDir: path.join(root, dataDir),
    env,
    home: root,
    cipher: null,
    chatFactory: (m, keys) => wrap(new ProviderChatClient({ config: m, keys, env })),
  });
}

// ---- 1 and 2: billed input and the peak request ----
const fake = await startFakeModel({ contextWindow: WINDOW, keepBodies: false });
let step = 0;
fake.setResponder((r): FakeReply => {
  if (isSummary(r)) return { text: `Summary: reading big.txt in 32 KiB slices; ${step} read so far.` };
  step++;
  if (step > STEPS) return { toolCalls: [{ name: 'finish', input: { summary: `read ${STEPS} slices` } }] };
  return {
    text: `slice ${step}`,
    toolCalls: [{ name: 'read_file', input: { path: 'big.txt', offset: (step - 1) * SLICE } }],
  };
});
const first = await core('data-billed');
await first.host.call('settings.set', { model: model(fake) });
const session = await first.sessions.create(workspace);
await session.send('Read big.txt to the end, 32 KiB at a time.');
await session.idle();
const events = [...session.allEvents()];
const firstBody = await firstRequestBody();
await first.dispose();
const sent = fake.stats();
await fake.close();

const billed =
  sent.inputTokens -
  sent.cacheReadTokens -
  sent.cacheWriteTokens +
  1.25 * sent.cacheWriteTokens +
  0.1 * sent.cacheReadTokens;
const reference = await wholeHistoryInput(events, firstBody);
console.log(
  `60-step turn: ${sent.requests} requests (${sent.refused} refused), ${fmt(sent.inputTokens)} input tokens sent, ` +
    `${fmt(sent.cacheReadTokens)} read from the cache, ${fmt(sent.cacheWriteTokens)} written; ` +
    `${events.filter((e) => e.type === 'context_masked').length} masking blocks, ${events.filter((e) => e.type === 'compaction').length} summaries`,
);
reportRatio('billed input vs whole history, uncached', billed, reference, 0.15, 'tokens');
reportValue('peak request / window', (100 * sent.peakInputTokens) / WINDOW, 100, '%');

/** The first request's tools and system, from a replay of the session's first step with bodies kept. */
async function firstRequestBody(): Promise<{ tools: unknown; system: unknown }> {
  const probe = await startFakeModel();
  probe.enqueue({ text: 'ok' });
  const c = await core('data-probe');
  await c.host.call('settings.set', { model: model(probe) });
  const s = await c.sessions.create(workspace);
  await s.send('Read big.txt to the end, 32 KiB at a time.');
  await s.idle();
  await c.dispose();
  const body = probe.requests[0]!.body as { tools: unknown[]; system: unknown[] };
  await probe.close();
  return { tools: stripCache(body.tools), system: stripCache(body.system) };
}

function stripCache(blocks: unknown[]): unknown[] {
  return blocks.map((b) => {
    const { cache_control: _none, ...rest } = b as Record<string, unknown>;
    return rest;
  });
}

/**
 * What the runner sent before the context room: at every step the whole conversation so
 * far (every result whole), no cache breakpoint. Posted to a fake with no window, which
 * counts each request with the same tokenizer.
 */
async function wholeHistoryInput(log: SessionEvent[], head: { tools: unknown; system: unknown }): Promise<number> {
  const ref = await startFakeModel({ keepBodies: false });
  ref.setResponder(() => ({ text: 'ok' }));
  const messages: unknown[] = [];
  const post = async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 32_000, stream: true, ...head, messages };
    const res = await fetch(`${ref.anthropicBaseURL}/messages`, { method: 'POST', body: JSON.stringify(body) });
    await res.text();
  };
  for (const e of log) {
    if (e.type === 'user_message') messages.push({ role: 'user', content: e.text });
    if (e.type === 'tool_call') {
      await post();
      const text = log.find((t) => t.type === 'assistant_text' && t.seq === e.seq - 1);
      const content = [
        ...(text?.type === 'assistant_text' ? [{ type: 'text', text: text.text }] : []),
        { type: 'tool_use', id: e.toolCallId, name: e.tool, input: e.args },
      ];
      messages.push({ role: 'assistant', content });
    }
    if (e.type === 'tool_result') {
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: e.toolCallId, content: e.output }] });
    }
  }
  const total = ref.stats().inputTokens;
  await ref.close();
  return total;
}

// ---- 3: step overhead at 100 and at 10,000 events ----
async function stepGaps(prefill: number): Promise<{ gaps: number[]; events: number }> {
  const model3 = await startFakeModel({ contextWindow: WINDOW, keepBodies: false });
  let reads = 0;
  let measuring = false;
  // About four events a step: a prefill of 100 events is one turn of 25 reads.
  const perTurn = Math.min(150, Math.ceil(prefill / 4));
  model3.setResponder((r): FakeReply => {
    if (isSummary(r)) return { text: 'Summary: reading small.txt over and over.' };
    reads++;
    // Turns of up to 150 steps until the log has `prefill` events; then one measured turn of 40.
    if ((!measuring && reads % perTurn === 0) || (measuring && reads > 40)) return { text: 'done' };
    return { text: 'again', toolCalls: [{ name: 'read_file', input: { path: 'small.txt' } }] };
  });
  const gaps: number[] = [];
  let lastEnd: number | null = null;
  const c = await core(`data-overhead-${prefill}`, (inner) => ({
    async step(request) {
      if (measuring && lastEnd !== null) gaps.push(performance.now() - lastEnd);
      const result = await inner.step(request);
      lastEnd = performance.now();
      return result;
    },
  }));
  await c.host.call('settings.set', { model: model(model3) });
  const s = await c.sessions.create(workspace);
  while (s.allEvents().length < prefill) {
    await s.send('Read small.txt again and again.');
    await s.idle();
  }
  const before = s.allEvents().length;
  measuring = true;
  reads = 0;
  lastEnd = null;
  await s.send('Read small.txt forty times.');
  await s.idle();
  await c.dispose();
  await model3.close();
  return { gaps: gaps.slice(0, 38), events: before };
}

const small = await stepGaps(100);
const large = await stepGaps(10_000);
console.log(
  `step overhead p50: ${small.events} events ${median(small.gaps).toFixed(2)} ms, ${large.events} events ${median(large.gaps).toFixed(2)} ms`,
);
reportRatio('step overhead, 10,000-event session vs 100-event session', median(large.gaps), median(small.gaps), 1.5);

await fs.rm(root, { recursive: true, force: true });

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
