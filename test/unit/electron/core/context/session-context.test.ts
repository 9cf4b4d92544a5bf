/**
 * The context room through its one way in, against an in-memory log and a scripted chat
 * client: what a step sends, when it masks and summarises (and that both are logged),
 * what a restart sends, and how a provider's too-long refusal is taken.
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../../../shared/events.js';
import type { ChatClient, StepRequest, StepResult } from '../../../../../electron/core/chat/chat-client.js';
import { ChatError } from '../../../../../electron/core/chat/chat-error.js';
import { ContextFullError } from '../../../../../electron/core/context/context-full-error.js';
import { SessionContext, type ContextCall } from '../../../../../electron/core/context/session-context.js';
import { WORKSPACE_TOOLS } from '../../../../../electron/core/tools/tools.js';
import { MASK_TARGET_SHARE } from '../../../../../shared/limits.js';
import { withAgentTools } from '../../../../../electron/core/runner/agent-tools.js';

const anthropic: ModelConfig = {
  provider: 'anthropic',
  modelId: 'test-model',
  contextWindow: 60_000,
  maxOutputTokens: 4_000,
  prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

/** A log in memory that folds each event into the context as the session does. */
function harness(events: SessionEvent[] = []) {
  const log = [...events];
  const requests: StepRequest[] = [];
  let summaries = 0;
  const chat: ChatClient = {
    step: async (request) => {
      requests.push(request);
      summaries++;
      return reply(`Summary ${summaries}: the user wants the big file read.`);
    },
  };
  const make = (from: SessionEvent[]) => {
    const ctx: SessionContext = new SessionContext({
      sessionId: 'session-1',
      events: from,
      workspace: null,
      home: '/nonexistent',
      tools: () => withAgentTools(WORKSPACE_TOOLS),
      getBlob: () => Promise.reject(new Error('no blobs here')),
      append: async (payload: EventPayload) => {
        const event = { ...payload, seq: log.length + 1, ts: '2026-12-03T00:00:00.000Z' } as SessionEvent;
        log.push(event);
        ctx.add(event);
        return event;
      },
    });
    return ctx;
  };
  let ctx = make(log);
  return {
    log,
    requests,
    get ctx() {
      return ctx;
    },
    restart() {
      ctx = make([...log]);
    },
    call(model: ModelConfig = anthropic): ContextCall {
      return { turnId: 't1', chat, model, signal: new AbortController().signal };
    },
    /** Appends a user message, or a step that read `bytes` bytes, as the runner logs them. */
    async user(text: string) {
      await ctx.add(push(log, { type: 'user_message', messageId: `m${log.length}`, text }));
    },
    async read(bytes: number, ok = true) {
      const id = `call_${log.length}`;
      ctx.add(
        push(log, {
          type: 'tool_call',
          turnId: 't1',
          toolCallId: id,
          tool: 'read_file',
          args: { path: 'big.txt', offset: log.length },
        }),
      );
      ctx.add(
        push(log, {
          type: 'tool_result',
          turnId: 't1',
          toolCallId: id,
          tool: 'read_file',
          ok,
          output: body(bytes, log.length),
        }),
      );
    },
    /** A step whose text is large and whose call and result are small: nothing there to mask. */
    async textStep(bytes: number, withResult = true) {
      const id = `call_${log.length}`;
      ctx.add(push(log, { type: 'assistant_text', turnId: 't1', text: body(bytes, log.length) }));
      ctx.add(push(log, { type: 'tool_call', turnId: 't1', toolCallId: id, tool: 'list_dir', args: { path: '.' } }));
      if (withResult)
        ctx.add(
          push(log, { type: 'tool_result', turnId: 't1', toolCallId: id, tool: 'list_dir', ok: true, output: 'a.txt' }),
        );
    },
    /** What the provider would report for a request: 4 bytes a token. */
    async counted(requestBytes: number) {
      ctx.add(push(log, usageEvent(Math.ceil(requestBytes / 4), requestBytes)));
    },
  };
}

function push(log: SessionEvent[], payload: EventPayload): SessionEvent {
  const event = { ...payload, seq: log.length + 1, ts: '2026-12-03T00:00:00.000Z' } as SessionEvent;
  log.push(event);
  return event;
}

function usageEvent(inputTokens: number, requestBytes: number): EventPayload {
  return {
    type: 'usage',
    turnId: 't1',
    purpose: 'step',
    model: 'anthropic:test-model',
    inputTokens,
    outputTokens: 10,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    requestBytes,
    contextWindow: 60_000,
    cost: null,
  };
}

/** Distinct text of about `bytes` bytes. */
function body(bytes: number, salt: number): string {
  const line = `line ${salt} of a large file with words in it\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

function reply(text: string): StepResult {
  return {
    text,
    toolCalls: [],
    finishReason: 'stop',
    usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 800, cacheWriteTokens: 0 },
    assistantMessage: { role: 'assistant', content: [{ type: 'text', text }] },
  };
}

const sent = (messages: StepRequest['messages']) => JSON.stringify(messages);
const types = (log: SessionEvent[]) => log.map((e) => e.type);

describe('the context of a step', () => {
  it('sends every result whole while the request is well inside the window, and logs nothing', async () => {
    const h = harness();
    await h.user('read big.txt');
    await h.read(8_000);
    const step = await h.ctx.next(h.call());
    expect(sent(step.messages)).toContain('line 2 of a large file');
    expect(step.maxOutputTokens).toBe(4_000);
    expect(step.room).toEqual({ window: 60_000, outputReserve: 4_000, input: 56_000 });
    expect(types(h.log)).toEqual(['user_message', 'tool_call', 'tool_result']);
  });

  it('puts Anthropic breakpoints on the system prompt and at most three messages', async () => {
    const h = harness();
    await h.user('read big.txt');
    for (let i = 0; i < 4; i++) await h.read(2_000);
    const step = await h.ctx.next(h.call());
    expect(step.cacheBreakpoints).toEqual({ system: true, messages: [6, 8] });
    expect(step.messages.every((m) => m.providerOptions === undefined)).toBe(true);
  });

  it('gives OpenAI no breakpoints, and the session id as the prompt cache key', async () => {
    const h = harness();
    await h.user('hello');
    const step = await h.ctx.next(h.call({ provider: 'openai', modelId: 'gpt-test' }));
    expect(step.cacheBreakpoints).toEqual({ system: false, messages: [] });
    expect(step.messages.every((m) => m.providerOptions === undefined)).toBe(true);
    expect(step.cacheKey).toBe('session-1');
  });

  it('masks the oldest results in one block past 80% of the room, logs it, and keeps the latest two whole', async () => {
    const h = harness();
    await h.user('read big.txt');
    for (let i = 0; i < 12; i++) {
      await h.read(16_000);
      const step = await h.ctx.next(h.call());
      await h.counted(step.requestBytes);
      expect(step.tokens).toBeLessThanOrEqual(step.room.input);
    }
    const masked = h.log.filter((e) => e.type === 'context_masked');
    expect(masked.length).toBeGreaterThan(0);
    const first = masked[0]!;
    // The block cuts down to the target share, or as deep as keeping the latest two allows:
    // here two 16,000-byte results hold more than the target, so all the others go at once.
    const resultsBefore = h.log.filter((e) => e.type === 'tool_result' && e.seq < first.seq).length;
    expect(first.type === 'context_masked' && first.results).toBe(resultsBefore - 2);
    expect(first.type === 'context_masked' && first.tokensAfter).toBeGreaterThan(56_000 * MASK_TARGET_SHARE);
    const step = await h.ctx.next(h.call());
    const text = sent(step.messages);
    expect(text).toContain('Result hidden to keep the context small: this read_file result (16,000 bytes');
    const results = step.messages.filter((m) => m.role === 'tool');
    expect(JSON.stringify(results.at(-1))).toContain('of a large file');
    expect(JSON.stringify(results.at(-2))).toContain('of a large file');
  });

  it('summarises when masking cannot free enough, keeping every user message verbatim and the latest history', async () => {
    const h = harness();
    await h.user('first ask: read big.txt');
    for (let i = 0; i < 8; i++) await h.textStep(16_000);
    await h.user('second ask: and then summarise it');
    const latest = h.log.length;
    await h.textStep(16_000);
    const step = await h.ctx.next(h.call());
    const compaction = h.log.find((e) => e.type === 'compaction');
    expect(compaction?.type === 'compaction' && compaction.trigger).toBe('budget');
    if (compaction?.type !== 'compaction') return;
    expect(compaction.fromSeq).toBe(1);
    expect(compaction.summary).toContain('Summary 1');
    expect(compaction.summary).toContain('first ask: read big.txt');
    expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore / 2);
    // The summary call read the covered history and asked for a summary.
    expect(sent(h.requests[0]!.messages)).toContain('write a summary of this session');
    expect(h.log.find((e) => e.type === 'usage')).toMatchObject({ purpose: 'compaction' });
    // The next request is the summary, then what came after toSeq, the latest step whole.
    expect(sent(step.messages.slice(0, 1))).toContain('<summary>');
    expect(sent(step.messages)).toContain(`line ${latest} of a large file`);
    expect(step.tokens).toBeLessThanOrEqual(step.room.input * 0.8);
  });

  it('after a restart, rebuilds byte-identical requests from the log', async () => {
    const h = harness();
    await h.user('read big.txt');
    for (let i = 0; i < 14; i++) {
      await h.read(16_000);
      await h.counted((await h.ctx.next(h.call())).requestBytes);
    }
    expect(types(h.log)).toContain('context_masked');
    const before = await h.ctx.next(h.call());
    h.restart();
    const after = await h.ctx.next(h.call());
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('reports usage with the cost at the configured prices', async () => {
    const h = harness();
    await h.user('hi');
    const step = await h.ctx.next(h.call());
    const usage = h.ctx.usage('t1', 'step', step, {
      inputTokens: 10_000,
      outputTokens: 1_000,
      cacheReadTokens: 8_000,
      cacheWriteTokens: 1_000,
    });
    expect(usage).toMatchObject({ type: 'usage', model: 'anthropic:test-model', contextWindow: 60_000 });
    // 1,000 plain × $3 + 8,000 read × $0.30 + 1,000 written × $3.75 + 1,000 out × $15, per million.
    expect(usage.type === 'usage' && usage.cost).toBeCloseTo((3_000 + 2_400 + 3_750 + 15_000) / 1e6, 10);
  });
});

describe('when the provider refuses the request as too long', () => {
  it('takes the window it states from then on, calibrates by its count, and summarises', async () => {
    const h = harness();
    await h.user('read big.txt');
    for (let i = 0; i < 3; i++) await h.read(16_000);
    const step = await h.ctx.next(h.call());
    const refusal = new ChatError('context_overflow', 'prompt is too long: 30000 tokens > 20000 maximum', {
      status: 400,
      contextLimit: { tokens: 30_000, maximum: 20_000 },
    });
    await h.ctx.overflow(h.call(), step, refusal);
    expect(h.log.find((e) => e.type === 'context_window')).toMatchObject({
      model: 'anthropic:test-model',
      tokens: 20_000,
      requestTokens: 30_000,
      requestBytes: step.requestBytes,
    });
    expect(h.log.find((e) => e.type === 'compaction')).toMatchObject({ trigger: 'overflow' });
    const retry = await h.ctx.next(h.call());
    expect(retry.room.window).toBe(20_000);
    expect(retry.tokens).toBeLessThanOrEqual(retry.room.input);
  });
});

describe('Compact now', () => {
  it('summarises everything but an open step, with the instructions in the request', async () => {
    const h = harness();
    await h.user('read big.txt');
    await h.read(4_000);
    await h.read(4_000);
    const done = await h.ctx.compactNow(h.call(), 'keep the file names');
    expect(done.tokensAfter).toBeLessThan(done.tokensBefore);
    expect(sent(h.requests[0]!.messages)).toContain('keep the file names');
    expect(h.log.find((e) => e.type === 'compaction')).toMatchObject({
      trigger: 'user',
      instructions: 'keep the file names',
    });
    const step = await h.ctx.next(h.call());
    expect(step.messages).toHaveLength(1);
  });

  it('says plainly when there is nothing to summarise yet', async () => {
    const h = harness();
    await expect(h.ctx.compactNow(h.call())).rejects.toThrow(ContextFullError);
    expect(h.requests).toHaveLength(0);
  });
});

describe('a history that cannot fit', () => {
  it('ends in a plain error when even the system prompt and the tools do not fit the window', async () => {
    const h = harness();
    await h.user('hi');
    await expect(h.ctx.next(h.call({ ...anthropic, contextWindow: 2_000 }))).rejects.toThrow(
      /no longer fits anthropic:test-model's context window/,
    );
    expect(h.requests).toHaveLength(0);
  });

  it('does not try again at every step a summary that freed little', async () => {
    const h = harness();
    await h.user('go');
    // A step still waiting on its call (a card): it stays whole, so a summary frees almost nothing.
    await h.textStep(150_000, false);
    const first = await h.ctx.next(h.call());
    expect(h.requests).toHaveLength(1);
    const second = await h.ctx.next(h.call());
    expect(h.requests).toHaveLength(1);
    expect(second.tokens).toBe(first.tokens);
    expect(second.tokens).toBeLessThanOrEqual(second.room.input);
  });

  it('never sends a summary call larger than the window: a message too long for it leaves the log’s own facts', async () => {
    const h = harness();
    await h.user(`huge paste ${body(400_000, 1)}`);
    await h.textStep(1_000);
    await h.textStep(1_000);
    const step = await h.ctx.next(h.call());
    expect(h.requests).toHaveLength(0);
    const compaction = h.log.find((e) => e.type === 'compaction');
    expect(compaction?.type === 'compaction' && compaction.summary).toContain('too long to summarise');
    expect(compaction?.type === 'compaction' && compaction.summary).toContain('huge paste line 1');
    expect(step.tokens).toBeLessThanOrEqual(step.room.input);
  });
});

describe('what the model sees', () => {
  it('lists the system prompt, every tool and every message with tokens, marking masked results and breakpoints', async () => {
    const h = harness();
    await h.user('read big.txt');
    for (let i = 0; i < 12; i++) {
      await h.read(16_000);
      await h.counted((await h.ctx.next(h.call())).requestBytes);
    }
    const preview = await h.ctx.preview(anthropic, { turnLive: false });
    expect(preview).toMatchObject({
      model: 'anthropic:test-model',
      window: 60_000,
      outputReserve: 4_000,
      calibrated: true,
    });
    expect(preview.parts[0]).toMatchObject({ kind: 'system', breakpoint: true });
    expect(preview.parts.filter((p) => p.kind === 'tool').map((p) => p.label)).toEqual([
      'read_file',
      'grep',
      'list_dir',
      'search_replace',
      'write_file',
      'run',
      'ask',
      'finish',
      'use_skill',
    ]);
    const messages = preview.parts.filter((p) => p.kind === 'message');
    expect(messages.filter((p) => p.masked).length).toBeGreaterThan(0);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', label: 'read_file result', breakpoint: true });
    expect(messages.at(-1)!.masked).toBeUndefined();
    // The parts are the request's own: their bytes add up to what the next step measures.
    const step = await h.ctx.next(h.call());
    expect(preview.parts.reduce((n, p) => n + p.bytes, 0)).toBe(step.requestBytes);
    expect(preview.tokens).toBe(step.tokens);
    expect(preview.pending).toBeNull();
  });

  it('says when the next step would first mask, and shows the context masked', async () => {
    const h = harness();
    await h.user('read big.txt');
    for (let i = 0; i < 12; i++) await h.read(16_000);
    const preview = await h.ctx.preview(anthropic, { turnLive: false });
    expect(preview.pending).toMatch(/older tool results will be masked/);
    expect(preview.parts.some((p) => p.masked)).toBe(true);
    expect(types(h.log)).not.toContain('context_masked');
  });

  it('cuts a long part for the window but counts all of it', async () => {
    const h = harness();
    await h.user(body(40_000, 7));
    const preview = await h.ctx.preview(anthropic, { turnLive: false });
    const user = preview.parts.find((p) => p.kind === 'message')!;
    expect(user.bytes).toBe(40_000);
    expect(user.text.length).toBeLessThan(20_000);
    expect(user.text).toContain('shown cut: the part is 40,000 bytes');
  });
});
