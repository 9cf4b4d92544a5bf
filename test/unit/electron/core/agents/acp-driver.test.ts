/**
 * The ACP driver drives a real session with a real agent process (the scripted agent,
 * speaking ACP through the SDK): the agent starts only through its start card, its
 * messages, calls and plan become the transcript, and what it asks of the client (files,
 * permissions) goes through the gate as a native call would.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Answer } from '../../../../../shared/cards.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { foldEvents } from '../../../../../shared/reducer.js';
import { startHarness, type Harness } from '../core-harness.js';
import { unconfined } from '../../../../support/unconfined.js';
import {
  PLANTED_KEY,
  scriptedAgent,
  scriptedDriver,
  type AgentScript,
  type ScriptedAgent,
} from '../../../../support/scripted-acp.js';
import type { AcpDriverOptions } from '../../../../../electron/core/agents/acp-driver.js';

let h: Harness | undefined;
let agent: ScriptedAgent | undefined;
let stopDriver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopDriver?.();
  await h?.close();
  await agent?.close();
  h = agent = stopDriver = undefined;
});

const T = 60_000;

async function start(script: Omit<AgentScript, 'journal'>, extra: Partial<AcpDriverOptions> = {}) {
  agent = await scriptedAgent(script);
  const driver = scriptedDriver(agent, extra);
  stopDriver = driver.stop;
  h = await startHarness(undefined, { sandboxFor: () => unconfined().sandbox, driver });
  const id = await h.open();
  return { h, agent, id, driver };
}

/** Answers the next card of this kind (after `sinceSeq`) and returns it. */
async function answerCard(hh: Harness, id: string, kind: string, answer: Answer, sinceSeq = 0) {
  const card = await hh.event(id, 'card', (e) => e.body.kind === kind && e.seq > sinceSeq);
  await hh.call('card.answer', { id, cardId: card.cardId, answer });
  return card;
}

async function send(hh: Harness, id: string, text: string) {
  const since = (await hh.events(id)).at(-1)?.seq ?? 0;
  await hh.call('session.send', { id, text });
  return since;
}

function endOf(hh: Harness, id: string, since: number) {
  return hh.event(id, 'turn_ended', (e) => e.seq > since);
}

const types = (events: SessionEvent[]) => events.map((e) => e.type);

describe('a staged agent (SPEC §15)', () => {
  it(
    'is offered no file callbacks: it writes in its own place itself, and a write it sent would be a card',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [{ say: ['hi'] }] }] }, { clientFiles: false });
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect((await agent.journal()).find((j) => j.method === 'initialize')?.params).toMatchObject({
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
    },
    T,
  );
});

describe('the agent starts only through its start card', () => {
  it(
    'denied: the turn ends with a clear line and no process is started',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [{ say: ['hi'] }] }] });
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'deny');
      const end = await endOf(h, id, since);
      expect(end).toMatchObject({ reason: 'finished' });
      expect(end.message).toMatch(/Scripted agent was not started: denied by the user/);
      expect(agent.launches).toBe(0);
    },
    T,
  );

  it(
    'allowed: initialize, session/new in the workspace with the MCP servers and _meta, the prompt, the reply',
    async () => {
      const { h, agent, id } = await start(
        { turns: [{ steps: [{ say: ['Hel', 'lo ', 'world'] }] }] },
        { sessionMeta: { claudeCode: { options: { x: 1 } } } },
      );
      const since = await send(h, id, 'say hello');
      await answerCard(h, id, 'agent_start', 'allow_once');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      const journal = await agent.journal();
      expect(journal.find((j) => j.method === 'initialize')?.params).toMatchObject({
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      });
      expect(journal.find((j) => j.method === 'session/new')?.params).toMatchObject({
        cwd: h.workspace,
        mcpServers: [],
        _meta: { claudeCode: { options: { x: 1 } } },
      });
      expect(journal.find((j) => j.method === 'session/prompt')?.params).toMatchObject({
        prompt: [{ type: 'text', text: 'say hello' }],
      });
      const events = await h.events(id);
      expect(events.find((e) => e.type === 'agent_session')).toMatchObject({ agentSessionId: 'agent-session-1' });
      expect(events.filter((e) => e.type === 'assistant_text').map((e) => (e as { text: string }).text)).toEqual([
        'Hello world',
      ]);
    },
    T,
  );

  it(
    'allowed for the session: a crash mid-turn ends it with the stderr, and the relaunch asks no card again',
    async () => {
      const { h, agent, id } = await start({
        turns: [
          { steps: [{ say: ['one'] }] },
          {
            steps: [
              { say: ['about to'] },
              { crash: { code: 3, stderr: `key ${PLANTED_KEY} rejected\nboom: the agent fell over\n` } },
            ],
          },
          { steps: [{ say: ['three'] }] },
        ],
      });
      let since = await send(h, id, 'first');
      await answerCard(h, id, 'agent_start', 'allow_session');
      await endOf(h, id, since);
      since = await send(h, id, 'second');
      const crashed = await endOf(h, id, since);
      expect(crashed.reason).toBe('error');
      expect(crashed.message).toMatch(/exit code 3.*key \[redacted\] rejected.*boom: the agent fell over/s);
      // The key it printed reaches no event.
      expect(JSON.stringify(await h.events(id))).not.toContain(PLANTED_KEY);
      since = await send(h, id, 'third');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      const events = await h.events(id);
      expect(events.filter((e) => e.type === 'card')).toHaveLength(1);
      expect(agent.launches).toBe(2);
      // The text streamed before the crash is kept; the new process starts without the old one's memory, said once.
      expect(events.filter((e) => e.type === 'assistant_text').map((e) => (e as { text: string }).text)).toEqual([
        'one',
        'about to',
        'three',
      ]);
      expect(events.filter((e) => e.type === 'result')).toHaveLength(1);
      expect(events.find((e) => e.type === 'result')).toMatchObject({
        summary: expect.stringMatching(/without its memory/),
      });
    },
    T,
  );

  it(
    'a changed launch asks again, though the earlier one was allowed for the session',
    async () => {
      const { h, agent, id } = await start({
        turns: [{ steps: [{ crash: { code: 1, stderr: 'x' } }] }, { steps: [{ say: ['ok'] }] }],
      });
      let since = await send(h, id, 'first');
      await answerCard(h, id, 'agent_start', 'allow_session');
      await endOf(h, id, since);
      agent.startBody.fingerprint = 'launch-2';
      since = await send(h, id, 'second');
      await answerCard(h, id, 'agent_start', 'allow_once', since);
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
    },
    T,
  );

  it(
    'an agent that never answers initialize ends the turn with the limit in words, its process stopped',
    async () => {
      const { h, agent, id } = await start({ initialize: 'never', turns: [] }, { initializeTimeoutMs: 1500 });
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const end = await endOf(h, id, since);
      expect(end).toMatchObject({ reason: 'error', message: 'the agent did not answer initialize within 2 s' });
      const p = await agent.launch(new AbortController().signal); // one more, to compare with
      await p.stop();
      expect(agent.launches).toBe(2);
    },
    T,
  );

  it(
    'authenticates with the configured method when the agent lists it',
    async () => {
      const { h, agent, id } = await start(
        {
          initialize: { authMethods: [{ id: 'gemini-api-key', name: 'key' }] },
          turns: [{ steps: [{ say: ['in'] }] }],
        },
        { authMethod: 'gemini-api-key' },
      );
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await endOf(h, id, since);
      expect((await agent.journal()).map((j) => j.method).filter(Boolean)).toEqual([
        'initialize',
        'authenticate',
        'session/new',
        'session/prompt',
      ]);
    },
    T,
  );
});

describe("the agent's updates become the transcript", () => {
  it('a call announced before its input streamed in is logged with the words it ends up with', async () => {
    // Claude Code announces a Read as "Read File", then names the file once its input is known.
    const { h, id } = await start({
      turns: [
        {
          steps: [
            { toolCall: { id: 'r1', title: 'Read File', kind: 'read' } },
            { toolUpdate: { id: 'r1', title: 'Read sum.test.js', locations: ['/ws/sum.test.js'] } },
            { toolUpdate: { id: 'r1', status: 'completed', text: 'the test' } },
            { toolCall: { id: 'r2', title: 'Terminal', kind: 'execute' } },
            { toolUpdate: { id: 'r2', title: 'ls -la' } },
            { toolUpdate: { id: 'r2', status: 'in_progress' } },
            { toolUpdate: { id: 'r2', status: 'failed', text: 'refused' } },
            { toolCall: { id: 'r3', title: 'Write', kind: 'edit' } },
            { say: ['Done'] },
          ],
        },
      ],
    });
    const since = await send(h, id, 'go');
    await answerCard(h, id, 'agent_start', 'allow_once');
    await endOf(h, id, since);
    const events = await h.events(id);
    const calls = events.filter((e) => e.type === 'tool_call').map((c) => (c as { args: unknown }).args);
    expect(calls).toEqual([
      { title: 'Read sum.test.js', kind: 'read', locations: ['/ws/sum.test.js'] },
      { title: 'ls -la', kind: 'execute' },
      // Never run nor named: logged at the turn's end with the words it had.
      { title: 'Write', kind: 'edit' },
    ]);
    const results = events.filter((e) => e.type === 'tool_result').map((r) => (r as { output: string }).output);
    expect(results).toEqual(['the test', 'refused', 'the turn ended before the agent reported how this call ended']);
  });

  it(
    'its calls are agent_tool rows without cards, the gate’s own tools left out, its plan a plan row',
    async () => {
      const { h, id } = await start({
        turns: [
          {
            steps: [
              { say: ['Looking'] },
              { plan: [{ content: 'read it', status: 'in_progress', priority: 'high' }] },
              { toolCall: { id: 't1', title: 'Read a.txt', kind: 'read', locations: ['/ws/a.txt'] } },
              { toolUpdate: { id: 't1', status: 'completed', text: 'file text' } },
              { toolCall: { id: 't2', title: 'mcp__gatehouse__write_file', kind: 'edit' } },
              { toolCall: { id: 't3', title: 'write_file (gatehouse MCP Server)', kind: 'edit' } },
              {
                toolCall: {
                  id: 't4',
                  title: 'Write',
                  kind: 'edit',
                  meta: { claudeCode: { toolName: 'mcp__gatehouse__write_file' } },
                },
              },
              { toolUpdate: { id: 't2', status: 'completed' } },
              { unknownUpdate: true },
              { toolCall: { id: 't5', title: 'Search', kind: 'search' } },
              { plan: [{ content: 'read it', status: 'completed', priority: 'high' }] },
              { say: ['Done'] },
            ],
            stop: 'refusal',
          },
        ],
      });
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const end = await endOf(h, id, since);
      expect(end).toMatchObject({ reason: 'finished', message: 'the agent refused to go on with this request' });
      const events = await h.events(id);
      const calls = events.filter((e) => e.type === 'tool_call');
      expect(calls.map((c) => (c as { args: unknown }).args)).toEqual([
        { title: 'Read a.txt', kind: 'read', locations: ['/ws/a.txt'] },
        { title: 'Search', kind: 'search' },
      ]);
      const results = events.filter((e) => e.type === 'tool_result');
      expect(results.map((r) => [(r as { ok: boolean }).ok, (r as { output: string }).output])).toEqual([
        [true, 'file text'],
        [false, 'the turn ended before the agent reported how this call ended'],
      ]);
      expect(events.filter((e) => e.type === 'card')).toHaveLength(1);
      const state = foldEvents(events);
      const plans = state.transcript.filter((r) => r.kind === 'plan');
      expect(plans).toHaveLength(1);
      expect(plans[0]).toMatchObject({ entries: [{ content: 'read it', status: 'completed' }] });
      expect(events.filter((e) => e.type === 'assistant_text').map((e) => (e as { text: string }).text)).toEqual([
        'Looking',
        'Done',
      ]);
    },
    T,
  );

  it(
    'malformed lines and a flood of updates crash nothing, and the session goes on',
    async () => {
      const { h, id } = await start({
        turns: [
          {
            steps: [
              { raw: 'not json at all' },
              { raw: '{"jsonrpc":"2.0","method":5}' },
              { raw: '[1,2]' },
              { flood: 5000 },
            ],
          },
          { steps: [{ say: ['still here'] }] },
        ],
      });
      let since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      const text = (await h.events(id)).find((e) => e.type === 'assistant_text') as { text: string };
      expect(text.text).toBe('.'.repeat(5000));
      since = await send(h, id, 'again');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect((await h.events(id)).at(-2)).toMatchObject({ type: 'assistant_text', text: 'still here' });
    },
    T,
  );
});

describe("the agent's files go through the gate", () => {
  it(
    'a write is write_file’s card; allowed it lands and the agent hears so, denied it gets the refusal in words',
    async () => {
      const { h, agent, id } = await start({
        turns: [
          {
            steps: [
              { write: { path: 'PLACEHOLDER/a.txt', content: 'hello\n' } },
              { write: { path: 'PLACEHOLDER/b.txt', content: 'no\n' } },
            ],
          },
        ],
      });
      agent.script.turns[0]!.steps = [
        { write: { path: path.join(h.workspace, 'a.txt'), content: 'hello\n' } },
        { write: { path: path.join(h.workspace, 'b.txt'), content: 'no\n' } },
      ];
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const first = await answerCard(h, id, 'write', 'allow_once');
      expect(first.body).toMatchObject({
        kind: 'write',
        tool: 'write_file',
        path: path.join(h.workspace, 'a.txt'),
        creates: true,
      });
      await answerCard(h, id, 'write', 'deny', first.seq);
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect(await fs.readFile(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('hello\n');
      await expect(fs.stat(path.join(h.workspace, 'b.txt'))).rejects.toThrow();
      const answers = (await agent.journal()).filter((j) => j.answer === 'write');
      expect(answers[0]).toMatchObject({ result: {} });
      expect(answers[1]).toMatchObject({
        error: { code: -32000, message: expect.stringMatching(/denied by the user/) },
      });
      const events = await h.events(id);
      expect(events.some((e) => e.type === 'checkpoint')).toBe(true);
      expect(types(events).filter((t) => t === 'tool_call').length).toBe(
        types(events).filter((t) => t === 'tool_result').length,
      );
    },
    T,
  );

  it(
    'a write over the cap is refused as the native tool refuses it, with no card',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [] }] });
      agent.script.turns[0]!.steps = [
        { write: { path: path.join(h.workspace, 'big.txt'), content: 'x'.repeat(256 * 1024 + 1) } },
      ];
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await endOf(h, id, since);
      const [answer] = (await agent.journal()).filter((j) => j.answer === 'write');
      expect(answer).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/write_file/) } });
      expect((await h.events(id)).filter((e) => e.type === 'card')).toHaveLength(1);
    },
    T,
  );

  it(
    'a write through a link out of the workspace is carded as outside, as native',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [] }] });
      await fs.symlink(h.outside, path.join(h.workspace, 'out'));
      agent.script.turns[0]!.steps = [{ write: { path: path.join(h.workspace, 'out', 'x.txt'), content: 'x' } }];
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const card = await answerCard(h, id, 'write', 'deny');
      expect(card.body).toMatchObject({ path: path.join(h.outside, 'x.txt'), inside: false });
      await endOf(h, id, since);
    },
    T,
  );

  it(
    'a read inside is free and raw (line and limit honoured); a missing file is "Resource not found"; outside is a read card',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [] }] });
      await fs.writeFile(path.join(h.workspace, 'r.txt'), 'l1\nl2\nl3\nl4\n');
      await fs.writeFile(path.join(h.outside, 'o.txt'), 'outside text');
      agent.script.turns[0]!.steps = [
        { read: { path: path.join(h.workspace, 'r.txt') } },
        { read: { path: path.join(h.workspace, 'r.txt'), line: 2, limit: 2 } },
        { read: { path: path.join(h.workspace, 'new.txt') } },
        { read: { path: path.join(h.outside, 'o.txt') } },
        { read: { path: path.join(h.outside, 'missing.txt') } },
      ];
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const card = await answerCard(h, id, 'read', 'allow_once');
      expect(card.body).toEqual({ kind: 'read', tool: 'read_file', path: path.join(h.outside, 'o.txt') });
      await endOf(h, id, since);
      const reads = (await agent.journal()).filter((j) => j.answer === 'read');
      expect(reads[0]).toMatchObject({ result: { content: 'l1\nl2\nl3\nl4\n' } });
      expect(reads[1]).toMatchObject({ result: { content: 'l2\nl3' } });
      expect(reads[2]).toMatchObject({ error: { code: -32002, message: expect.stringMatching(/Resource not found/) } });
      expect(reads[3]).toMatchObject({ result: { content: 'outside text' } });
      // Outside, a missing file is not told apart from one the agent may not see.
      expect(reads[4]).toMatchObject({
        error: { code: -32000, message: expect.stringMatching(/outside the workspace/) },
      });
      expect((await h.events(id)).filter((e) => e.type === 'card')).toHaveLength(2);
    },
    T,
  );
});

describe('an agent held to read a missing file as empty (Gemini CLI)', () => {
  it(
    'gets empty text for a missing file inside the workspace, so its write can create it; outside, a missing file is still refused',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [] }] }, { missingFile: 'empty' });
      agent.script.turns[0]!.steps = [
        { read: { path: path.join(h.workspace, 'new.txt') } },
        { read: { path: path.join(h.outside, 'missing.txt') } },
      ];
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await endOf(h, id, since);
      const reads = (await agent.journal()).filter((j) => j.answer === 'read');
      expect(reads[0]).toMatchObject({ result: { content: '' } });
      expect(reads[1]).toMatchObject({ error: { code: -32000 } });
      await expect(fs.stat(path.join(h.workspace, 'new.txt'))).rejects.toThrow(/ENOENT/);
    },
    T,
  );
});

describe("the agent's own permission requests are agent_ask cards", () => {
  const options = [
    { optionId: 'yes', name: 'Allow', kind: 'allow_once' as const },
    { optionId: 'always', name: 'Always', kind: 'allow_always' as const },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
  ];
  const ask = (title: string) => ({ ask: { title, kind: 'fetch' as const, options, text: 'GET https://example.org' } });

  it(
    'each answer picks the agent’s option; allowed for the session, the same title and kind ask no card again',
    async () => {
      const { h, agent, id } = await start({
        turns: [
          { steps: [ask('Fetch example.org'), ask('Fetch example.org'), ask('Fetch other'), ask('Fetch third')] },
        ],
      });
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const first = await answerCard(h, id, 'agent_ask', 'allow_session');
      expect(first.body).toMatchObject({
        kind: 'agent_ask',
        title: 'Fetch example.org',
        toolKind: 'fetch',
        detail: 'GET https://example.org',
        options,
      });
      const second = await answerCard(h, id, 'agent_ask', 'allow_once', first.seq);
      expect(second.body).toMatchObject({ title: 'Fetch other' });
      await answerCard(h, id, 'agent_ask', 'deny', second.seq);
      await endOf(h, id, since);
      const answers = (await agent.journal()).filter((j) => j.answer === 'ask').map((j) => j.result);
      expect(answers).toEqual([
        { outcome: { outcome: 'selected', optionId: 'always' } },
        { outcome: { outcome: 'selected', optionId: 'always' } },
        { outcome: { outcome: 'selected', optionId: 'yes' } },
        { outcome: { outcome: 'selected', optionId: 'no' } },
      ]);
      expect((await h.events(id)).filter((e) => e.type === 'card')).toHaveLength(4);
    },
    T,
  );

  it(
    'odd options still get an answer: no reject option means cancelled, no allow_always means allow_once',
    async () => {
      const only = [{ optionId: 'ok', name: 'OK', kind: 'allow_once' as const }];
      const { h, agent, id } = await start({
        turns: [
          {
            steps: [
              { ask: { title: 'A', options: only } },
              { ask: { title: 'B', options: only } },
              { ask: { title: 'C', options: [] } },
            ],
          },
        ],
      });
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const a = await answerCard(h, id, 'agent_ask', 'allow_session');
      const b = await answerCard(h, id, 'agent_ask', 'deny', a.seq);
      await answerCard(h, id, 'agent_ask', 'allow_once', b.seq);
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect((await agent.journal()).filter((j) => j.answer === 'ask').map((j) => j.result)).toEqual([
        { outcome: { outcome: 'selected', optionId: 'ok' } },
        { outcome: { outcome: 'cancelled' } },
        { outcome: { outcome: 'cancelled' } },
      ]);
    },
    T,
  );
});

describe('the live turn, for the gate’s MCP face', () => {
  it(
    'is the running turn with its signal while one runs, and none between turns',
    async () => {
      const options = [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' as const }];
      const { h, id, driver } = await start({ turns: [{ steps: [{ ask: { title: 'A', options } }] }] });
      expect(driver.turn.current()).toBeNull();
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      const card = await h.event(id, 'card', (e) => e.body.kind === 'agent_ask');
      const live = driver.turn.current();
      expect(live).toMatchObject({ turnId: card.turnId });
      expect(live?.signal.aborted).toBe(false);
      await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
      await endOf(h, id, since);
      expect(driver.turn.current()).toBeNull();
    },
    T,
  );
});

describe('Cancel', () => {
  it(
    'tells the agent (session/cancel), answers its open request cancelled, and ends the turn cancelled',
    async () => {
      const options = [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' as const }];
      const { h, agent, id } = await start({
        turns: [{ steps: [{ ask: { title: 'A', options } }, { waitCancel: true }] }, { steps: [{ say: ['next'] }] }],
      });
      let since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await h.event(id, 'card', (e) => e.body.kind === 'agent_ask');
      await h.call('session.cancel', { id });
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'cancelled' });
      const journal = await agent.journal();
      expect(journal.find((j) => j.answer === 'ask')).toMatchObject({ result: { outcome: { outcome: 'cancelled' } } });
      expect(journal.some((j) => j.method === 'session/cancel')).toBe(true);
      expect(agent.launches).toBe(1);
      since = await send(h, id, 'again');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect(agent.launches).toBe(1);
    },
    T,
  );

  it(
    'an agent that ignores the cancel is stopped after the grace, and the next turn relaunches it',
    async () => {
      const { h, agent, id } = await start({
        turns: [{ steps: [{ say: ['working'] }, { hang: true }] }, { steps: [{ say: ['back'] }] }],
      });
      let since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_session');
      await h.event(id, 'turn_started', (e) => e.seq > since);
      await waitFor(async () => (await agent.journal()).some((j) => j.method === 'session/prompt'));
      await h.call('session.cancel', { id });
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'cancelled' });
      since = await send(h, id, 'again');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect(agent.launches).toBe(2);
    },
    T,
  );
});

describe('after the app restarts', () => {
  it(
    'the start card is open again, and once answered the turn carries on',
    async () => {
      const { h, id } = await start({ turns: [{ steps: [{ say: ['started late'] }] }] });
      const since = await send(h, id, 'go');
      await h.event(id, 'card', (e) => e.body.kind === 'agent_start');
      await h.restart();
      await answerCard(h, id, 'agent_start', 'allow_once');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      const events = await h.events(id);
      expect(events.filter((e) => e.type === 'card')).toHaveLength(1);
      expect(events.find((e) => e.type === 'assistant_text')).toMatchObject({ text: 'started late' });
    },
    T,
  );

  it(
    'a write card is open again and carried out once answered; an agent that cannot load its session cannot be told, so the turn ends interrupted, saying why',
    async () => {
      const { h, agent, id } = await start({ turns: [{ steps: [] }] });
      agent.script.turns[0]!.steps = [{ write: { path: path.join(h.workspace, 'w.txt'), content: 'w\n' } }];
      const since = await send(h, id, 'go');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await h.event(id, 'card', (e) => e.body.kind === 'write');
      await h.restart();
      await answerCard(h, id, 'write', 'allow_once');
      const end = await endOf(h, id, since);
      expect(end).toMatchObject({
        reason: 'interrupted',
        message: expect.stringMatching(/to be told your answer/),
      });
      expect(await fs.readFile(path.join(h.workspace, 'w.txt'), 'utf8')).toBe('w\n');
      const events = await h.events(id);
      expect(types(events).filter((t) => t === 'tool_call').length).toBe(
        types(events).filter((t) => t === 'tool_result').length,
      );
    },
    T,
  );

  it(
    'a write card is open again; once answered, an agent that can load its session is relaunched, told the outcome, and carries on',
    async () => {
      const { h, agent, id } = await start({
        initialize: { loadSession: true },
        turns: [{ steps: [] }, { steps: [{ say: ['carried on'] }] }],
      });
      agent.script.turns[0]!.steps = [{ write: { path: path.join(h.workspace, 'w.txt'), content: 'w\n' } }];
      const since = await send(h, id, 'write w.txt');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await h.event(id, 'card', (e) => e.body.kind === 'write');
      await h.restart();
      await answerCard(h, id, 'write', 'allow_once');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      expect(await fs.readFile(path.join(h.workspace, 'w.txt'), 'utf8')).toBe('w\n');
      const journal = await agent.journal();
      expect(journal.find((j) => j.method === 'session/load')?.params).toMatchObject({ sessionId: 'agent-session-1' });
      const told = journal.filter((j) => j.method === 'session/prompt')[1]?.params as { prompt: { text: string }[] };
      expect(told.prompt[0]!.text).toMatch(
        /restarted while your write of .*w\.txt waited for the user.*the file was written as you asked.*\n\nwrite w\.txt$/s,
      );
      const events = await h.events(id);
      expect(events.find((e) => e.type === 'assistant_text')).toMatchObject({ text: 'carried on' });
      // The start card of this turn was answered before the restart: the relaunch asks no second one.
      expect(events.filter((e) => e.type === 'card').map((e) => (e as { body: { kind: string } }).body.kind)).toEqual([
        'agent_start',
        'write',
      ]);
    },
    T,
  );

  it(
    'an agent_ask card is open again; once answered the agent is told which way',
    async () => {
      const options = [
        { optionId: 'yes', name: 'Allow', kind: 'allow_once' as const },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
      ];
      const { h, agent, id } = await start({
        initialize: { loadSession: true },
        turns: [{ steps: [{ ask: { title: 'Fetch it', kind: 'fetch', options } }] }, { steps: [{ say: ['ok'] }] }],
      });
      const since = await send(h, id, 'fetch');
      await answerCard(h, id, 'agent_start', 'allow_once');
      await h.event(id, 'card', (e) => e.body.kind === 'agent_ask');
      await h.restart();
      await answerCard(h, id, 'agent_ask', 'deny');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      const told = (await agent.journal()).filter((j) => j.method === 'session/prompt')[1]?.params as {
        prompt: { text: string }[];
      };
      expect(told.prompt[0]!.text).toMatch(/your permission request "Fetch it" \(fetch\).*the user did not allow it/s);
    },
    T,
  );

  it(
    'an agent that can load its session is asked to, and its replayed history is not logged again',
    async () => {
      const { h, agent, id } = await start({
        initialize: { loadSession: true },
        replay: ['replayed history'],
        turns: [{ steps: [{ say: ['one'] }] }, { steps: [{ say: ['two'] }] }],
      });
      let since = await send(h, id, 'first');
      await answerCard(h, id, 'agent_start', 'allow_session');
      await endOf(h, id, since);
      await h.restart();
      since = await send(h, id, 'second');
      expect(await endOf(h, id, since)).toMatchObject({ reason: 'finished' });
      const journal = await agent.journal();
      expect(journal.find((j) => j.method === 'session/load')?.params).toMatchObject({ sessionId: 'agent-session-1' });
      const events = await h.events(id);
      expect(events.filter((e) => e.type === 'assistant_text').map((e) => (e as { text: string }).text)).toEqual([
        'one',
        'two',
      ]);
      expect(events.filter((e) => e.type === 'agent_session')).toHaveLength(1);
      expect(events.some((e) => e.type === 'result')).toBe(false);
      expect(events.filter((e) => e.type === 'card')).toHaveLength(1);
    },
    T,
  );
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}
