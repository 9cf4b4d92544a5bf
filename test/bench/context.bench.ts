/**
 * `npm run bench -- context`: what the model's context costs, in one run.
 *
 * 1. Billed input against the write-once floor. A 60-step turn of distinct 32 KiB reads
 *    through the whole core and the real Anthropic provider, against the fake model
 *    enforcing the window and accounting the prompt cache as the API does; run twice: for a
 *    known model (claude-sonnet-4-5, 200k in model-table.json, no window in the config)
 *    and for a model the table lacks (the context assumes 128k; the fake enforces 128k).
 *    Billed at Anthropic's multipliers over the requests the fake answered (uncached x1,
 *    cache write x1.25, cache read x0.1; a refused request is not billed), summary calls
 *    included.
 *    The floor: every distinct token the turn sends written to the cache exactly once
 *    (x1.25), and nothing else billed. "Distinct" is by content block, as the cache keys
 *    them (a tool definition, the system prompt, one message's text, tool call or tool
 *    result): the sum, over the distinct blocks any answered request carried, of the
 *    block's tokens, each block once, however often or wherever it was sent. A masked
 *    result's stub and a summary are blocks of their own, so they count too (each is a few
 *    dozen tokens; a summary is what the model must read instead of what it covers).
 *    Why no strategy that caches can beat it: the model must see every result (and the
 *    head, and its own calls) at least once, and with a breakpoint on the last message
 *    (SPEC 8: a tool loop reads its input from the cache) each token is written the first
 *    time it is sent, at x1.25; re-reading it later costs x0.1 more, rewriting it after
 *    the prefix before it changed costs x1.25 again. The floor counts neither. (Sending
 *    every token once uncached, x1, would be cheaper still, but then no step reads the
 *    last one from the cache.) Target: billed <= 2x the floor, for both models. The line
 *    before each ratio says where the rest went: reads, rewrites (tokens written again,
 *    after a masking block or a summary moved the prefix) and uncached input.
 * 2. Peak request against the window, over every request of (1), each model. Target
 *    <= 100%, always.
 * 3. For information, no target: the known model's billed input against the same
 *    conversation sent whole at every step with no cache and no budget (what the runner
 *    sent before the context room). No one pays that (it no longer fits the window after a
 *    dozen steps), so it is not a target.
 * 4. Step overhead: runner time from one step's reply to the next request (tools, logging,
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
import { resolveModel } from '../../electron/core/context/model-catalog.js';
import type { ModelConfig } from '../../shared/contract.js';
import type { SessionEvent } from '../../shared/events.js';
import { readAnthropicPrompt } from '../fake-model/anthropic-prompt.js';
import { startFakeModel, type FakeModel, type FakeReply, type RecordedRequest } from '../fake-model/server.js';
import { reportRatio, reportValue } from './measure.js';

const SLICE = 32 * 1024;
const STEPS = 60;
const WINDOW = 200_000;
const KNOWN_MODEL = 'claude-sonnet-4-5';
const UNKNOWN_MODEL = 'bench-model-not-in-the-table';
const UNKNOWN_WINDOW = 128_000;
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

function model(fake: FakeModel, modelId = KNOWN_MODEL, contextWindow?: number): ModelConfig {
  return {
    provider: 'anthropic',
    modelId,
    baseURL: fake.anthropicBaseURL,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
  };
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

// ---- 1 and 2: billed input against the floor, and the peak request ----
interface TurnCost {
  events: SessionEvent[];
  requests: number;
  refused: number;
  sent: number;
  read: number;
  written: number;
  /** Tokens of blocks no earlier request carried: the floor's tokens. */
  distinct: number;
  billed: number;
  peak: number;
}

async function billedTurn(label: string, modelId: string, window: number): Promise<TurnCost> {
  const fake = await startFakeModel({ contextWindow: window, keepBodies: false });
  const config = model(fake, modelId);
  const assumed = resolveModel(config).window;
  if (assumed !== window)
    throw new Error(`${modelId}: the context assumes ${assumed} tokens, the fake enforces ${window}`);
  const seen = new Map<string, number>();
  let step = 0;
  fake.setResponder((r): FakeReply => {
    // Called only for a request the fake answers (a refused one never reaches the model).
    for (const block of readAnthropicPrompt(r.body).blocks) seen.set(block.key, block.tokens);
    if (isSummary(r)) return { text: `Summary: reading big.txt in 32 KiB slices; ${step} read so far.` };
    step++;
    if (step > STEPS) return { toolCalls: [{ name: 'finish', input: { summary: `read ${STEPS} slices` } }] };
    return {
      text: `slice ${step}`,
      toolCalls: [{ name: 'read_file', input: { path: 'big.txt', offset: (step - 1) * SLICE } }],
    };
  });
  const c = await core(`data-billed-${modelId}`);
  await c.host.call('settings.set', { model: config });
  const session = await c.sessions.create(workspace);
  await session.send('Read big.txt to the end, 32 KiB at a time.');
  await session.idle();
  const events = [...session.allEvents()];
  await c.dispose();
  const stats = fake.stats();
  const answered = fake.requests.filter((r) => r.wire === 'anthropic' && r.refused === undefined);
  await fake.close();
  let billed = 0;
  for (const r of answered) {
    billed +=
      r.inputTokens - r.cacheReadTokens - r.cacheWriteTokens + 1.25 * r.cacheWriteTokens + 0.1 * r.cacheReadTokens;
  }
  const cost: TurnCost = {
    events,
    requests: stats.requests,
    refused: stats.refused,
    sent: answered.reduce((n, r) => n + r.inputTokens, 0),
    read: stats.cacheReadTokens,
    written: stats.cacheWriteTokens,
    distinct: [...seen.values()].reduce((a, b) => a + b, 0),
    billed,
    peak: stats.peakInputTokens,
  };
  const uncached = cost.sent - cost.read - cost.written;
  console.log(
    `${label}: ${cost.requests} requests (${cost.refused} refused), ${fmt(cost.sent)} input tokens answered, ` +
      `${fmt(cost.distinct)} distinct; ${events.filter((e) => e.type === 'context_masked').length} masking blocks, ` +
      `${events.filter((e) => e.type === 'compaction').length} summaries. Billed ${fmt(Math.round(billed))}: ` +
      `new tokens written ${fmt(Math.round(1.25 * cost.distinct))}, rewritten ${fmt(Math.round(1.25 * (cost.written - cost.distinct)))} ` +
      `(${fmt(cost.written - cost.distinct)} tokens), reads ${fmt(Math.round(0.1 * cost.read))} (${fmt(cost.read)} tokens), ` +
      `uncached ${fmt(uncached)}`,
  );
  reportRatio(`${label}: billed input vs write-once floor`, billed, 1.25 * cost.distinct, 2, 'tokens');
  reportValue(`${label}: peak request / window`, (100 * cost.peak) / window, 100, '%');
  return cost;
}

const known = await billedTurn(`known model (${KNOWN_MODEL}, 200k)`, KNOWN_MODEL, WINDOW);
await billedTurn('unknown model (128k assumed)', UNKNOWN_MODEL, UNKNOWN_WINDOW);

// ---- 3: for information, the conversation sent whole and uncached at every step ----
const reference = await wholeHistoryInput(known.events, await firstRequestBody());
console.log(
  `for information, no target: known model's billed input vs the whole history sent uncached at every step ` +
    `(no one pays that): ${fmt(Math.round(known.billed))} vs ${fmt(reference)} tokens, ${((100 * known.billed) / reference).toFixed(1)}%`,
);

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

// ---- 4: step overhead at 100 and at 10,000 events ----
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
  await c.host.call('settings.set', { model: model(model3, KNOWN_MODEL, WINDOW) });
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
