/**
 * The gate's MCP face, through a real MCP client over the session's Unix socket: an
 * external agent's writes, commands and reads raise the same cards, grants, checkpoints
 * and log events as the native runner's, and the face refuses in words what it cannot take.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_CANCELLED } from '../../../../../electron/core/agents/gate-mcp-cancels.js';
import { CANCELLED } from '../../../../../electron/core/agents/gate-mcp-tools.js';
import { toolSpecs } from '../../../../../electron/core/context/tool-specs.js';
import { WORKSPACE_TOOLS } from '../../../../../electron/core/tools/tools.js';
import type { SessionEvent } from '../../../../../shared/events.js';
import { startHarness, type Harness } from '../core-harness.js';
import { allowEveryCard, runTurn } from '../checkpoints/checkpoint-harness.js';
import { resultText, startGateHarness, type GateHarness } from './gate-mcp-harness.js';

let g: GateHarness | undefined;
let native: Harness | undefined;
afterEach(async () => {
  await g?.close();
  await native?.close();
  g = undefined;
  native = undefined;
});

type CardEvent = Extract<SessionEvent, { type: 'card' }>;

/** The session's first card logged after `after` (the first of all without it), once it is up. */
function card(gh: GateHarness, after?: CardEvent): Promise<CardEvent> {
  return gh.h.event(gh.id, 'card', (e) => e.seq > (after?.seq ?? 0));
}

function answer(gh: GateHarness, cardId: string, answer: 'allow_once' | 'allow_session' | 'deny') {
  return gh.h.call('card.answer', { id: gh.id, cardId, answer });
}

describe('what the face offers', () => {
  it('lists only the native write, run and read tools, with their own words and schemas, and says they are the only way', async () => {
    g = await startGateHarness();
    const { tools } = await g.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['list_dir', 'read_file', 'run', 'search_replace', 'write_file']);
    const specs = toolSpecs(WORKSPACE_TOOLS);
    for (const t of tools) {
      expect(t.description).toBe(specs[t.name]!.description);
      expect(t.inputSchema).toEqual(specs[t.name]!.inputSchema);
    }
    expect(g.client.getInstructions()).toMatch(/only way to change the workspace/);
  });
});

describe('a write through the face', () => {
  it('raises the write card with the diff; deny leaves the file byte for byte and the agent reads the refusal', async () => {
    g = await startGateHarness();
    const file = path.join(g.h.workspace, 'a.txt');
    await fs.writeFile(file, 'old line\n');
    await g.startTurn();
    const pending = g.call('write_file', { path: 'a.txt', content: 'new line\n' });
    const up = await card(g);
    expect(up.body).toMatchObject({ kind: 'write', tool: 'write_file', path: file, inside: true, creates: false });
    expect(up.body.kind === 'write' && up.body.diff).toMatch(/-old line\n\+new line/);
    await answer(g, up.cardId, 'deny');
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(resultText(r)).toBe('denied by the user');
    expect(await fs.readFile(file, 'utf8')).toBe('old line\n');
    expect(await g.events('checkpoint')).toEqual([]);
  });

  it('allowed, writes the file after a checkpoint, and Undo takes it back', async () => {
    g = await startGateHarness();
    const file = path.join(g.h.workspace, 'a.txt');
    await fs.writeFile(file, 'old line\n');
    const turnId = await g.startTurn();
    const pending = g.call('write_file', { path: 'a.txt', content: 'new line\n' });
    await answer(g, (await card(g)).cardId, 'allow_once');
    const r = await pending;
    expect(r.isError).toBeFalsy();
    expect(resultText(r)).toMatch(/^Wrote a\.txt/);
    expect(await fs.readFile(file, 'utf8')).toBe('new line\n');
    expect((await g.events('checkpoint')).length).toBeGreaterThan(0);
    await g.endTurn();
    await g.h.call('session.undo', { id: g.id, turnId });
    expect(await fs.readFile(file, 'utf8')).toBe('old line\n');
  });
  it('takes a search_replace as the native tool does: a write card with the diff of the one change', async () => {
    g = await startGateHarness();
    const file = path.join(g.h.workspace, 'b.txt');
    await fs.writeFile(file, 'keep\nold\nkeep\n');
    await g.startTurn();
    const pending = g.call('search_replace', { path: 'b.txt', old: 'old', new: 'new' });
    const up = await card(g);
    expect(up.body).toMatchObject({ kind: 'write', tool: 'search_replace', path: file });
    expect(up.body.kind === 'write' && up.body.diff).toMatch(/-old\n\+new/);
    await answer(g, up.cardId, 'allow_once');
    expect((await pending).isError).toBeFalsy();
    expect(await fs.readFile(file, 'utf8')).toBe('keep\nnew\nkeep\n');
  });
});

describe('a command through the face', () => {
  it('raises a command card, runs confined once allowed, and streams its output to the window', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const pending = g.call('run', { argv: ['sh', '-c', 'touch x && echo made-it'] });
    const up = await card(g);
    expect(up.body).toMatchObject({ kind: 'command', sandbox: { confined: true, network: false } });
    await answer(g, up.cardId, 'allow_once');
    const r = await pending;
    expect(r.isError).toBeFalsy();
    expect(resultText(r)).toMatch(/made-it/);
    await fs.access(path.join(g.h.workspace, 'x'));
    const streamed = g.h.pushes.filter((p) => p.name === 'session.output').map((p) => p.payload);
    expect(streamed).toContainEqual(
      expect.objectContaining({ toolCallId: up.toolCallId, chunk: expect.stringMatching(/made-it/) }),
    );
  });

  it('runs a second identical call with no card once the first was allowed for the session', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const first = g.call('run', { argv: ['touch', 'x'] });
    await answer(g, (await card(g)).cardId, 'allow_session');
    expect((await first).isError).toBeFalsy();
    await fs.rm(path.join(g.h.workspace, 'x'));
    const second = await g.call('run', { argv: ['touch', 'x'] });
    expect(second.isError).toBeFalsy();
    await fs.access(path.join(g.h.workspace, 'x'));
    expect(await g.events('card')).toHaveLength(1);
    expect(await g.events('tool_result')).toHaveLength(2);
  });
});

describe('reads through the face', () => {
  it('are free inside the workspace and raise a read card outside it, as native reads', async () => {
    g = await startGateHarness();
    await fs.writeFile(path.join(g.h.workspace, 'in.txt'), 'inside\n');
    const outside = path.join(g.h.outside, 'secret.txt');
    await fs.writeFile(outside, 'outside\n');
    await g.startTurn();
    expect(resultText(await g.call('read_file', { path: 'in.txt' }))).toMatch(/inside/);
    expect(await g.events('card')).toEqual([]);
    const pending = g.call('read_file', { path: outside });
    const up = await card(g);
    expect(up.body).toMatchObject({ kind: 'read', tool: 'read_file', path: outside });
    await answer(g, up.cardId, 'allow_once');
    expect(resultText(await pending)).toMatch(/outside/);
  });
});

describe('what the face refuses', () => {
  it('refuses a call with no turn running, in words, and logs nothing', async () => {
    g = await startGateHarness();
    const before = (await g.h.events(g.id)).length;
    const r = await g.call('write_file', { path: 'a.txt', content: 'x' });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/^no turn is running; write_file was not run/);
    expect((await g.h.events(g.id)).length).toBe(before);
    await expect(fs.access(path.join(g.h.workspace, 'a.txt'))).rejects.toThrow();
  });

  it('answers bad arguments with the field at fault, and logs nothing', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const before = (await g.h.events(g.id)).length;
    const missing = await g.call('write_file', { path: 'a.txt' });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toBe('write_file: invalid arguments: "content" is required (string)');
    const extra = await g.call('run', { argv: ['ls'], shell: true });
    expect(resultText(extra)).toMatch(/^run: invalid arguments: unknown field "shell"/);
    expect((await g.h.events(g.id)).length).toBe(before);
  });

  it('answers a tool it does not offer with a protocol error naming the tools, and logs nothing', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const before = (await g.h.events(g.id)).length;
    await expect(g.call('grep', { pattern: 'x' })).rejects.toThrow(/unknown tool "grep"; the tools are: write_file/);
    expect((await g.h.events(g.id)).length).toBe(before);
  });
});

describe('the turn and the calls', () => {
  it('cancels a call waiting on its card when the turn is cancelled: the card withdrawn, the call closed, the agent told', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const pending = g.call('write_file', { path: 'a.txt', content: 'x' });
    await card(g);
    await g.h.call('session.cancel', { id: g.id });
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(resultText(r)).toBe(CANCELLED);
    await g.h.event(g.id, 'turn_ended');
    const types = (await g.events('tool_call', 'card', 'card_withdrawn', 'tool_result', 'turn_ended')).map(
      (e) => e.type,
    );
    expect(types).toEqual(['tool_call', 'card', 'card_withdrawn', 'tool_result', 'turn_ended']);
    await expect(fs.access(path.join(g.h.workspace, 'a.txt'))).rejects.toThrow();
  });

  it('takes calls made at once as a native step takes its calls: all logged at once, each run after the one before', async () => {
    g = await startGateHarness();
    await fs.writeFile(path.join(g.h.workspace, 'in.txt'), 'inside\n');
    await g.startTurn();
    const first = g.call('write_file', { path: 'one.txt', content: '1' });
    const up1 = await card(g);
    const second = g.call('write_file', { path: 'two.txt', content: '2' });
    const read = g.call('read_file', { path: 'in.txt' });
    await expect.poll(async () => (await g!.events('tool_call')).length, { timeout: 20_000 }).toBe(3);
    await answer(g, up1.cardId, 'allow_once');
    const up2 = await card(g, up1);
    await answer(g, up2.cardId, 'allow_once');
    expect([(await first).isError, (await second).isError, (await read).isError]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // Each its own card, the second up only once the first call had its result; the free read ran last, in its place.
    const calls = (await g.events('tool_call')).map((e) => (e as { toolCallId: string }).toolCallId);
    const results = (await g.events('tool_result')) as Extract<SessionEvent, { type: 'tool_result' }>[];
    expect(results.map((e) => e.toolCallId)).toEqual(calls);
    expect(up2.toolCallId).toBe(calls[1]);
    expect(up2.seq).toBeGreaterThan(results[0]!.seq);
    expect(await fs.readFile(path.join(g.h.workspace, 'two.txt'), 'utf8')).toBe('2');
  });

  it('withdraws a call’s card when the agent cancels that call, and the turn goes on', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const cancel = new AbortController();
    const pending = g.client
      .callTool({ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }, undefined, {
        signal: cancel.signal,
        timeout: 120_000,
      })
      .catch((err: unknown) => err);
    const up = await card(g);

    cancel.abort('the agent gave up waiting');

    expect(await pending).toBeInstanceOf(Error);
    const withdrawn = await g.h.event(g.id, 'card_withdrawn', (e) => e.cardId === up.cardId);
    expect(withdrawn.reason).toBe(AGENT_CANCELLED);
    const result = await g.h.event(g.id, 'tool_result', (e) => e.toolCallId === up.toolCallId);
    expect([result.ok, result.output]).toEqual([false, AGENT_CANCELLED]);
    await expect(fs.access(path.join(g.h.workspace, 'a.txt'))).rejects.toThrow();
    // Only that call: the turn is live and the next call runs.
    expect((await g.events('turn_ended')).length).toBe(0);
    expect(resultText(await g.call('list_dir', {}))).not.toMatch(/a\.txt/);
  });

  it('does not let a relaunched agent’s cancel, counting ids from the start again, reach a call of the agent before it', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const before = await g.connect();
    const gone = g.call('write_file', { path: 'a.txt', content: 'x' }, before).catch((err: unknown) => err);
    const up = await card(g);
    await before.close();
    await gone;

    const relaunched = await g.connect();
    // Whatever id the earlier agent's call had, this agent cancels it too.
    for (let requestId = 0; requestId < 5; requestId++) {
      await relaunched.notification({ method: 'notifications/cancelled', params: { requestId, reason: 'stale' } });
    }
    // Each cancel is handed to the face before its POST is answered (the SDK's 202), so all have been taken here.

    expect(await g.events('card_withdrawn')).toEqual([]);
    await answer(g, up.cardId, 'allow_once');
    await g.h.event(g.id, 'tool_result', (e) => e.toolCallId === up.toolCallId);
    expect(await fs.readFile(path.join(g.h.workspace, 'a.txt'), 'utf8')).toBe('x');
  });

  it('keeps the card answerable when the agent goes away mid-call, and logs the result once answered', async () => {
    g = await startGateHarness();
    await g.startTurn();
    const other = await g.connect();
    const gone = g.call('write_file', { path: 'a.txt', content: 'x' }, other).catch((err: unknown) => err);
    const up = await card(g);
    await other.close();
    await gone;
    await answer(g, up.cardId, 'allow_once');
    await g.h.event(g.id, 'tool_result');
    expect(await fs.readFile(path.join(g.h.workspace, 'a.txt'), 'utf8')).toBe('x');
    // The face still serves the agents that remain.
    expect(resultText(await g.call('list_dir', {}))).toMatch(/a\.txt/);
  });
});

/** What two runs share: the calls' events with the ids, times and the temp folder blanked. */
function shapes(events: readonly SessionEvent[], root: string): unknown[] {
  const blank = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replaceAll(root, '<root>');
    if (Array.isArray(v)) return v.map(blank);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !['seq', 'ts', 'durationMs'].includes(k))
          .map(([k, x]) => [k, ['toolCallId', 'cardId', 'turnId', 'before', 'after'].includes(k) ? '<id>' : blank(x)]),
      );
    }
    return v;
  };
  const types = new Set(['tool_call', 'card', 'card_answer', 'checkpoint', 'tool_result']);
  return events.filter((e) => types.has(e.type)).map(blank);
}

describe('the log', () => {
  it('holds the same events for a call through the face as for the native runner making it', async () => {
    const write = { path: 'a.txt', content: 'new file\n' };
    native = await startHarness();
    native.fake.enqueue({ toolCalls: [{ name: 'write_file', input: write }] }, { text: 'done' });
    allowEveryCard(native);
    const nativeId = await native.open();
    await runTurn(native, nativeId, 'go');
    const byRunner = shapes(await native.events(nativeId), native.root);

    g = await startGateHarness();
    allowEveryCard(g.h);
    await g.startTurn();
    await g.call('write_file', write);
    const byFace = shapes(await g.h.events(g.id), g.h.root);
    expect(byFace.map((e) => (e as SessionEvent).type)).toEqual([
      'tool_call',
      'card',
      'card_answer',
      'checkpoint',
      'tool_result',
    ]);
    expect(byFace).toEqual(byRunner);
  });
});
