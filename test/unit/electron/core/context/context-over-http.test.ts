/**
 * The model's context end to end: the whole core through the real AI SDK providers over
 * HTTP, against the fake model server enforcing a window and accounting Anthropic's
 * prompt cache as the API does.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { startFakeModel, type FakeModel, type FakeReply, type RecordedRequest } from '../../../../fake-model/server.js';
import { providerCases, startHarness, type Harness } from '../core-harness.js';

const [anthropicCase, openaiCase] = providerCases as [(typeof providerCases)[0], (typeof providerCases)[0]];
const SLICE = 32 * 1024;

let h: Harness | undefined;
let fake: FakeModel | undefined;
afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

/** A file of distinct lines, so every 32 KiB slice differs (nothing repeats for a cache to find by accident). */
async function bigFile(dir: string, slices: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < slices * SLICE; i++) {
    const line = `${i.toString(36).padStart(6, '0')} the quick brown fox ${(i * 7919) % 104729} jumps over lazy dogs\n`;
    lines.push(line);
    size += line.length;
  }
  await fs.writeFile(path.join(dir, 'big.txt'), lines.join(''));
}

function isSummaryRequest(r: RecordedRequest): boolean {
  return r.rawBody.includes('write a summary of this session so far');
}

/** Reads big.txt slice by slice for `steps` steps, then finishes; a summary request gets a summary. */
function reader(steps: number): (r: RecordedRequest) => FakeReply {
  let step = 0;
  return (r) => {
    if (isSummaryRequest(r)) return { text: `Summary: reading big.txt in 32 KiB slices, ${step} done so far.` };
    step++;
    if (step > steps) return { toolCalls: [{ name: 'finish', input: { summary: `read ${steps} slices` } }] };
    return {
      text: `slice ${step}`,
      toolCalls: [{ name: 'read_file', input: { path: 'big.txt', offset: (step - 1) * SLICE } }],
    };
  };
}

async function anthropicHarness(window: number): Promise<Harness> {
  fake = await startFakeModel({ contextWindow: window, minCacheTokens: 1024 });
  h = await startHarness(anthropicCase, { fake });
  await h.call('settings.set', {
    model: { ...anthropicCase.config(fake), modelId: 'claude-sonnet-4-5', contextWindow: window },
  });
  return h;
}

const ofType = <T extends SessionEvent['type']>(events: SessionEvent[], type: T) =>
  events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);

describe('a long turn against a 200k window', () => {
  it('completes 60 distinct 32 KiB reads with no request over the window, reading its history from the cache', async () => {
    h = await anthropicHarness(200_000);
    await bigFile(h.workspace, 60);
    fake!.setResponder(reader(60));
    const id = await h.open();
    await h.call('session.send', { id, text: 'read big.txt to the end' });
    const ended = await h.event(id, 'turn_ended');
    expect(ended).toMatchObject({ reason: 'finished' });

    const stats = fake!.stats();
    expect(stats.refused).toBe(0);
    expect(stats.peakInputTokens).toBeLessThanOrEqual(200_000);
    expect(Math.max(...fake!.requests.map((r) => r.inputTokens))).toBeLessThanOrEqual(200_000);
    // Most input came from the cache, as the fake reports it like the API.
    expect(stats.cacheReadTokens / stats.inputTokens).toBeGreaterThan(0.5);

    const events = await h.events(id);
    expect(ofType(events, 'tool_result').filter((r) => r.ok && r.tool === 'read_file')).toHaveLength(60);
    expect(ofType(events, 'context_masked').length).toBeGreaterThan(0);
    const steps = ofType(events, 'usage').filter((u) => u.purpose === 'step');
    expect(steps).toHaveLength(61);
    expect(steps.some((u) => (u.cacheReadTokens ?? 0) > 0)).toBe(true);
    expect(steps.every((u) => u.cost !== null && u.cost > 0)).toBe(true);
    const state = await h.call('session.state', { id });
    expect(state.events.length).toBe(events.length);
  }, 120_000);
});

describe('a window that shrinks under a live session', () => {
  it('is taken from the refusal, the history summarised, and the turn goes on by itself', async () => {
    h = await anthropicHarness(200_000);
    await bigFile(h.workspace, 20);
    const read = reader(20);
    let steps = 0;
    let duringSummary: Promise<{ id: string; compacting?: boolean }[]> | undefined;
    fake!.setResponder((r) => {
      if (isSummaryRequest(r)) duringSummary ??= h!.call('sessions.list', {});
      else if (++steps === 11) fake!.setContextWindow(80_000);
      return read(r);
    });
    const id = await h.open();
    await h.call('session.send', { id, text: 'read big.txt' });
    expect(await h.event(id, 'turn_ended')).toMatchObject({ reason: 'finished' });
    const events = await h.events(id);
    expect(ofType(events, 'context_window')).toEqual([
      expect.objectContaining({ model: 'anthropic:claude-sonnet-4-5', tokens: 80_000 }),
    ]);
    expect(ofType(events, 'compaction')[0]).toMatchObject({ trigger: 'overflow' });
    expect(fake!.requests.filter((r) => r.refused === 'context-window')).toHaveLength(1);
    const after = fake!.requests.slice(fake!.requests.findIndex((r) => r.refused) + 1);
    expect(after.every((r) => r.inputTokens <= 80_000 && !r.refused)).toBe(true);
    expect(ofType(events, 'tool_result').filter((r) => r.ok && r.tool === 'read_file')).toHaveLength(20);
    // While the summary was written the session said so, to a window connecting then and by push.
    expect((await duringSummary)?.find((s) => s.id === id)?.compacting).toBe(true);
    const flags = h.pushes.flatMap((p) => (p.name === 'session.compacting' ? [p.payload.compacting] : []));
    expect(flags).toEqual([true, false]);
    expect((await h.call('sessions.list', {})).find((s) => s.id === id)?.compacting).toBeUndefined();
  }, 120_000);
});

describe('OpenAI', () => {
  it('sends the session id as prompt_cache_key', async () => {
    h = await startHarness(openaiCase);
    h.fake.enqueue({ text: 'hello' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'hi' });
    await h.event(id, 'turn_ended');
    expect(h.fake.requests[0]!.promptCacheKey).toBe(id);
  });
});

describe('a restart mid-session', () => {
  /** Runs to a write card after enough reads to mask; restarts there or not; returns the request after the answer. */
  async function requestAfterCard(workspace: string, restart: boolean): Promise<string> {
    const own = await startFakeModel({ contextWindow: 60_000 });
    fake = own;
    const run = await startHarness(anthropicCase, { fake: own });
    h = run;
    try {
      await fs.rm(workspace, { recursive: true, force: true });
      await fs.mkdir(workspace, { recursive: true });
      await bigFile(workspace, 8);
      await run.call('settings.set', {
        model: { ...anthropicCase.config(own), modelId: 'claude-sonnet-4-5', contextWindow: 60_000 },
      });
      let step = 0;
      own.setResponder((r) => {
        if (isSummaryRequest(r)) return { text: 'Summary: slices read.' };
        step++;
        if (step <= 8)
          return { toolCalls: [{ name: 'read_file', input: { path: 'big.txt', offset: (step - 1) * SLICE } }] };
        if (step === 9) return { toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: 'done\n' } }] };
        return { text: 'all done' };
      });
      const id = (await run.call('sessions.open', { workspace })).id;
      await run.call('session.send', { id, text: 'read big.txt, then write notes.txt' });
      const card = await run.event(id, 'card');
      const before = own.requests.length;
      if (restart) await run.restart();
      await run.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
      await run.event(id, 'turn_ended');
      expect(ofType(await run.events(id), 'context_masked').length).toBeGreaterThan(0);
      return own.requests[before]!.rawBody;
    } finally {
      await run.close();
      await own.close();
      h = undefined;
      fake = undefined;
    }
  }

  it('sends byte-identical context for the next step', async () => {
    const workspace = path.join(await fs.realpath(os.tmpdir()), 'gatehouse-restart-same-ws');
    const live = await requestAfterCard(workspace, false);
    const restarted = await requestAfterCard(workspace, true);
    expect(live.length).toBeGreaterThan(10_000);
    expect(restarted).toBe(live);
    await fs.rm(workspace, { recursive: true, force: true });
  }, 120_000);
});
