/**
 * MCP servers through the whole core (SPEC §10), against the repo's test server, which
 * logs every call it receives: what reaches a server is checked from the server's side.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../../../../electron/core/process/pid-alive.js';
import { startHarness, type Harness } from '../core-harness.js';
import { loggedCalls, serverLog, TEST_SERVER, testServer, writeMcpJson } from './mcp-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function withWorkspaceServer(env: Record<string, string> = {}, options = {}) {
  h = await startHarness(undefined, options);
  // Inside the workspace: a confined server writes nowhere else (its /tmp is its own).
  const log = path.join(h.workspace, 'calls.jsonl');
  await writeMcpJson(path.join(h.workspace, '.mcp.json'), { t: testServer(log, env) });
  return { h, log };
}

/** The tool names the model was offered in its latest request. */
function offeredTools(harness: Harness): string[] {
  const body = harness.fake.requests.at(-1)?.body as { tools?: { name: string }[] } | undefined;
  return (body?.tools ?? []).map((t) => t.name);
}

async function startCard(harness: Harness, id: string) {
  const card = await harness.event(id, 'card', (c) => c.body.kind === 'mcp_server');
  if (card.body.kind !== 'mcp_server') throw new Error('expected a server start card');
  return card;
}

describe("a workspace's MCP server", () => {
  it('starts only after its card, which shows the exact argv, folder, variable names and a confined run with network', async () => {
    const { h, log } = await withWorkspaceServer();
    h.fake.enqueue({ text: 'hello' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await startCard(h, id);
    expect(card.body).toMatchObject({
      server: 't',
      source: path.join(h.workspace, '.mcp.json'),
      argv: [process.execPath, TEST_SERVER],
      cwd: h.workspace,
      envNames: ['MCP_TEST_LOG'],
      sandbox: { confined: true, network: true },
    });
    expect(h.fake.requests).toHaveLength(0);
    expect(await serverLog(log)).toEqual([]);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await h.event(id, 'turn_ended');
    expect((await serverLog(log)).filter((l) => l.event === 'started')).toHaveLength(1);
    expect(offeredTools(h)).toEqual(expect.arrayContaining(['mcp__t__echo', 'mcp__t__crash']));
    const overview = await h.call('mcp.list', { id });
    expect(overview.servers).toMatchObject([{ name: 't', scope: 'workspace', state: 'ready' }]);
  });

  it('denied, never starts: no process, and the model is told it is unavailable', async () => {
    const { h, log } = await withWorkspaceServer();
    h.fake.enqueue({ text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await startCard(h, id);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');
    expect(await serverLog(log)).toEqual([]);
    expect(offeredTools(h).some((t) => t.startsWith('mcp__'))).toBe(false);
    expect(h.fake.requests[0]!.rawBody).toContain(
      'MCP servers not available in this turn: \\"t\\" (the user did not allow it to start)',
    );
    expect((await h.call('mcp.list', { id })).servers[0]).toMatchObject({ state: 'not_allowed' });
    // The next message does not ask again for the same config.
    h.fake.enqueue({ text: 'still ok' });
    await h.call('session.send', { id, text: 'again' });
    await h.event(id, 'turn_ended', (e) => e.seq > card.seq + 5);
    expect((await h.events(id)).filter((e) => e.type === 'card')).toHaveLength(1);
  });
});

describe('an MCP tool call', () => {
  async function readyWithGrant(answer: 'allow_once' | 'allow_session' = 'allow_session') {
    const ctx = await withWorkspaceServer();
    const id = await ctx.h.open();
    return { ...ctx, id, answer };
  }

  it('is a card showing server, tool, description, arguments and annotations; denied, it never reaches the server', async () => {
    const { h, log, id } = await readyWithGrant();
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__t__echo', input: { message: 'secret plan' } }] }, { text: 'done' });
    await h.call('session.send', { id, text: 'go' });
    const start = await startCard(h, id);
    await h.call('card.answer', { id, cardId: start.cardId, answer: 'allow_session' });
    const card = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    expect(card.body).toMatchObject({
      kind: 'mcp',
      server: 't',
      name: 'echo',
      tool: 'mcp__t__echo',
      description: 'Echoes back the input',
      argsJson: '{\n  "message": "secret plan"\n}',
      annotations: { readOnlyHint: true },
    });
    expect(card.scope).toContain('exactly these arguments');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    expect(await h.event(id, 'tool_result')).toMatchObject({ ok: false, output: 'denied by the user' });
    await h.event(id, 'turn_ended');
    expect(await loggedCalls(log)).toEqual([]);
  });

  it('allowed for the session covers that tool with exactly those arguments; other arguments ask', async () => {
    const { h, log, id } = await readyWithGrant();
    h.fake.enqueue(
      { toolCalls: [{ name: 'mcp__t__add', input: { a: 1, b: 2 } }] },
      { toolCalls: [{ name: 'mcp__t__add', input: { b: 2, a: 1 } }] },
      { toolCalls: [{ name: 'mcp__t__add', input: { a: 1, b: 3 } }] },
      { text: 'done' },
    );
    await h.call('session.send', { id, text: 'go' });
    await h.call('card.answer', { id, cardId: (await startCard(h, id)).cardId, answer: 'allow_once' });
    const first = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    await h.call('card.answer', { id, cardId: first.cardId, answer: 'allow_session' });
    const third = await h.event(id, 'card', (c) => c.body.kind === 'mcp' && c.cardId !== first.cardId);
    expect(third.body).toMatchObject({ argsJson: '{\n  "a": 1,\n  "b": 3\n}' });
    // The same arguments in another key order ran without a card.
    expect((await loggedCalls(log)).map((c) => c.args)).toEqual([
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ]);
    await h.call('card.answer', { id, cardId: third.cardId, answer: 'allow_once' });
    await h.event(id, 'turn_ended');
    const results = (await h.events(id)).filter((e) => e.type === 'tool_result');
    expect(results.map((r) => r.type === 'tool_result' && r.output)).toEqual(['3', '3', '4']);
  });

  it('when the tool changes, its grant is void and the next card shows what it was', async () => {
    const { h, log, id } = await readyWithGrant();
    h.fake.enqueue(
      { toolCalls: [{ name: 'mcp__t__echo', input: { message: 'a' } }] },
      { toolCalls: [{ name: 'mcp__t__change_description', input: { text: 'Echoes, and also mails it away' } }] },
      { toolCalls: [{ name: 'mcp__t__echo', input: { message: 'a' } }] },
      { text: 'done' },
    );
    await h.call('session.send', { id, text: 'go' });
    await h.call('card.answer', { id, cardId: (await startCard(h, id)).cardId, answer: 'allow_session' });
    const echo = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    await h.call('card.answer', { id, cardId: echo.cardId, answer: 'allow_session' });
    const change = await h.event(id, 'card', (c) => c.body.kind === 'mcp' && c.cardId !== echo.cardId);
    await h.call('card.answer', { id, cardId: change.cardId, answer: 'allow_once' });
    const again = await h.event(
      id,
      'card',
      (c) => c.body.kind === 'mcp' && c.body.name === 'echo' && c.cardId !== echo.cardId,
    );
    expect(again.body).toMatchObject({
      description: 'Echoes, and also mails it away',
      changedFrom: { description: 'Echoes back the input' },
    });
    expect(await h.event(id, 'mcp_tool_changed')).toMatchObject({ server: 't', tool: 'mcp__t__echo', voided: 1 });
    expect((await h.call('session.state', { id })).events.some((e) => e.type === 'mcp_tool_changed')).toBe(true);
    await h.call('card.answer', { id, cardId: again.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');
    expect((await loggedCalls(log)).map((c) => c.tool)).toEqual(['echo', 'change_description']);
  });

  it('to a server that crashes mid-call is a tool error, and the session goes on', async () => {
    const { h, id } = await readyWithGrant();
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__t__crash', input: {} }] }, { text: 'the server crashed' });
    await h.call('session.send', { id, text: 'go' });
    await h.call('card.answer', { id, cardId: (await startCard(h, id)).cardId, answer: 'allow_once' });
    const card = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const result = await h.event(id, 'tool_result');
    expect(result).toMatchObject({ ok: false });
    expect(result.output).toMatch(/the MCP server "t" stopped during the call \(exit code 3\)/);
    expect(await h.event(id, 'turn_ended')).toMatchObject({ reason: 'finished' });
    expect((await h.call('mcp.list', { id })).servers[0]).toMatchObject({ state: 'failed' });
  });

  it('to a server that hangs is a tool error after the timeout', async () => {
    const { h } = await withWorkspaceServer({}, { mcpCallTimeoutMs: 300 });
    const sid = await h.open();
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__t__hang', input: {} }] }, { text: 'it hung' });
    await h.call('session.send', { id: sid, text: 'go' });
    await h.call('card.answer', { id: sid, cardId: (await startCard(h, sid)).cardId, answer: 'allow_once' });
    const card = await h.event(sid, 'card', (c) => c.body.kind === 'mcp');
    await h.call('card.answer', { id: sid, cardId: card.cardId, answer: 'allow_once' });
    expect((await h.event(sid, 'tool_result')).output).toMatch(/did not answer within 0.3 s/);
    expect(await h.event(sid, 'turn_ended')).toMatchObject({ reason: 'finished' });
  });
});

describe('the lifetime of a server', () => {
  it('no server process, nor its child, survives the app closing, checked by pid', async () => {
    const { h, log } = await withWorkspaceServer();
    const id = await h.open();
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__t__spawn_child', input: {} }] }, { text: 'done' });
    await h.call('session.send', { id, text: 'go' });
    await h.call('card.answer', { id, cardId: (await startCard(h, id)).cardId, answer: 'allow_once' });
    const card = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const result = await h.event(id, 'tool_result');
    await h.event(id, 'turn_ended');
    const server = (await serverLog(log)).find((l) => l.event === 'started')!.pid;
    const child = Number(/child (\d+)/.exec(result.output)?.[1]);
    // Confined, the pids the server sees are its sandbox's: find them on the host by the
    // environment they inherited (this test's log path), so other tests' servers do not count.
    const hostPids = await pidsWithEnv(`MCP_TEST_LOG=${log}`);
    expect(hostPids.length).toBeGreaterThanOrEqual(2);
    expect(server).toBeGreaterThan(0);
    expect(child).toBeGreaterThan(0);
    await h.restart();
    for (const pid of hostPids) expect(pidAlive(pid)).toBe(false);
  });

  it('a restart with an open mcp card reopens it, and answering it carries the turn on', async () => {
    const { h, log } = await withWorkspaceServer();
    const id = await h.open();
    h.fake.enqueue({ toolCalls: [{ name: 'mcp__t__add', input: { a: 2, b: 2 } }] }, { text: 'four' });
    await h.call('session.send', { id, text: 'go' });
    await h.call('card.answer', { id, cardId: (await startCard(h, id)).cardId, answer: 'allow_session' });
    const card = await h.event(id, 'card', (c) => c.body.kind === 'mcp');
    await h.restart();
    const state = await h.call('session.state', { id });
    expect(state.summary.status).toBe('waiting');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    expect(await h.event(id, 'tool_result')).toMatchObject({ ok: true, output: '4' });
    expect(await h.event(id, 'turn_ended')).toMatchObject({ reason: 'finished' });
    expect((await loggedCalls(log)).map((c) => c.args)).toEqual([{ a: 2, b: 2 }]);
  });
});

/** Live host pids whose environment holds this exact variable. */
async function pidsWithEnv(variable: string): Promise<number[]> {
  const { promises: fs } = await import('node:fs');
  const pids: number[] = [];
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environ = await fs.readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').includes(variable) && pidAlive(Number(name))) pids.push(Number(name));
  }
  return pids;
}
