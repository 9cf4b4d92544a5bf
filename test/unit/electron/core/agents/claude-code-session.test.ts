/**
 * A Gatehouse session driven by the real, pinned Claude Code (its ACP adapter and its CLI),
 * through the app's contract, against a fake Anthropic model on loopback: the agent's start
 * is a card; the model's writes and commands reach the person only as the gate's cards,
 * through the gate's MCP face; its built-in Write and Bash are refused; Undo takes a write
 * back. The adapter comes from the agent cache CI fills (test/support/agent-cache.ts); when
 * it is missing this FAILS saying how to install it.
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import type { FakeModel } from '../../../../fake-model/server.js';
import type { Harness } from '../core-harness.js';
import { allowStart, bootRealAgent, turnEnd, type Booted, type Move, type RealAgent } from './real-agent-harness.js';

const CLAUDE: RealAgent = {
  id: 'claude-code',
  key: { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-test-0123456789abcdef' },
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  domains: ['api.anthropic.com'],
};

let booted: Booted | null = null;
let fake: FakeModel | null = null;

afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
  fake = null;
});

/**
 * Answers the main conversation (the request that offers the gate's tools) by turn: the
 * person's message names its turn ("TURN-n"), and each tool result since then moves to the
 * turn's next call; past the last, plain text ends the turn. Anything else the CLI asks (a
 * title, a summary) gets a short text.
 */
function scripted(turns: { name: string; input: unknown }[][]): Move {
  return (request) => {
    const body = request.body as { tools?: { name: string }[]; messages?: { role: string; content: unknown }[] };
    if (!body.tools?.some((t) => t.name.startsWith('mcp__gatehouse__'))) return { text: 'ok' };
    const messages = body.messages ?? [];
    const at = messages.findLastIndex((m) => m.role === 'user' && /TURN-\d+/.test(JSON.stringify(m.content)));
    if (at < 0) return { text: 'Done.' };
    const said = JSON.stringify(messages[at]!.content);
    // After a restart the agent is told what became of its waiting call: that was the turn's work.
    if (said.includes('The app restarted')) return { text: 'Done.' };
    const turn = Number(/TURN-(\d+)/.exec(said)![1]);
    const step = messages.slice(at + 1).filter((m) => JSON.stringify(m.content).includes('"tool_result"')).length;
    const call = turns[turn]?.[step];
    return call ? { toolCalls: [{ name: call.name, input: call.input }] } : { text: 'Done.' };
  };
}

async function boot(move: Move): Promise<{ h: Harness; id: string }> {
  booted = await bootRealAgent(CLAUDE, move);
  fake = booted.fake;
  const { agent } = (await booted.h.call('session.state', { id: booted.id })).summary;
  expect(agent).toMatchObject({ id: 'claude-code', label: 'Claude Code', version: '0.101.0' });
  return { h: booted.h, id: booted.id };
}

const started = (h: Harness, id: string) => allowStart(h, id, CLAUDE);

/** The tool results the model was sent for the main conversation, in order. */
function toolResults(fake: FakeModel): string[] {
  return fake.requests.flatMap((r) => {
    const messages = (r.body as { messages?: { content: unknown }[] }).messages ?? [];
    const last = messages.at(-1)?.content;
    if (!Array.isArray(last)) return [];
    return last
      .filter((b: { type?: string }) => b.type === 'tool_result')
      .map((b: { content?: unknown }) => JSON.stringify(b.content));
  });
}

describe('a session driven by the real Claude Code', () => {
  it('raises a write card for the model’s write; deny leaves the workspace as it was, allow writes, Undo takes it back', async () => {
    const write = { name: 'mcp__gatehouse__write_file', input: { path: 'hello.txt', content: 'hello\n' } };
    const { h, id } = await boot(scripted([[write], [write]]));
    const file = path.join(h.workspace, 'hello.txt');

    await h.call('session.send', { id, text: 'TURN-0 write hello.txt' });
    await started(h, id);
    const denied = await h.event(id, 'card', (c) => c.body.kind === 'write');
    expect(denied.body.kind === 'write' && denied.body.path).toBe(file);
    await h.call('card.answer', { id, cardId: denied.cardId, answer: 'deny' });
    const first = await turnEnd(h, id);
    expect(first.reason).toBe('finished');
    expect(existsSync(file)).toBe(false);
    expect(toolResults(fake!).some((r) => /denied/.test(r))).toBe(true);

    await h.call('session.send', { id, text: 'TURN-1 write it again' });
    const allowed = await h.event(id, 'card', (c) => c.body.kind === 'write' && c.seq > first.seq);
    await h.call('card.answer', { id, cardId: allowed.cardId, answer: 'allow_once' });
    const second = await turnEnd(h, id, first.seq);
    expect(second.reason).toBe('finished');
    expect(await fs.readFile(file, 'utf8')).toBe('hello\n');

    const undo = await h.call('session.undo', { id, turnId: second.turnId });
    expect(undo.restored.map((f) => f.path)).toEqual(['hello.txt']);
    expect(existsSync(file)).toBe(false);
  }, 300_000);

  it('raises a command card for the model’s command and runs it confined once allowed; its built-in Write and Bash are refused', async () => {
    const { h, id } = await boot(
      scripted([
        [
          { name: 'Write', input: { file_path: 'written-by-write', content: 'x' } },
          { name: 'Bash', input: { command: 'touch bash-was-here' } },
          { name: 'mcp__gatehouse__run', input: { argv: ['touch', 'made-by-run'] } },
        ],
      ]),
    );

    await h.call('session.send', { id, text: 'TURN-0 make a file' });
    await started(h, id);
    const card = await h.event(id, 'card', (c) => c.body.kind === 'command');
    if (card.body.kind !== 'command') throw new Error('not a command card');
    expect(card.body.argv).toEqual(['touch', 'made-by-run']);
    expect(card.body.sandbox?.confined).toBe(true);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await turnEnd(h, id);

    expect(existsSync(path.join(h.workspace, 'made-by-run'))).toBe(true);
    expect(existsSync(path.join(h.workspace, 'bash-was-here'))).toBe(false);
    expect(existsSync(path.join(h.workspace, 'written-by-write'))).toBe(false);
    const results = toolResults(fake!);
    // The CLI itself answers the two built-ins: they are not its tools in this session.
    expect(
      results.filter((r) => /No such tool available|not available|disabled/i.test(r)).length,
    ).toBeGreaterThanOrEqual(2);
    const cards = (await h.events(id)).filter((e) => e.type === 'card');
    expect(cards.map((c) => c.type === 'card' && c.body.kind)).toEqual(['agent_start', 'command']);
  }, 300_000);

  it('stops the agent’s turn on Cancel with a card open, withdrawing it, and the next turn goes on', async () => {
    const write = { name: 'mcp__gatehouse__write_file', input: { path: 'late.txt', content: 'late\n' } };
    const { h, id } = await boot(scripted([[write], [write]]));
    const file = path.join(h.workspace, 'late.txt');

    await h.call('session.send', { id, text: 'TURN-0 write late.txt' });
    await started(h, id);
    const open = await h.event(id, 'card', (c) => c.body.kind === 'write');
    const cancel = await h.call('session.cancel', { id });
    expect(cancel.cancelled).toBe(true);
    const ended = await turnEnd(h, id);
    expect(ended.reason).toBe('cancelled');
    expect(await h.event(id, 'card_withdrawn', (e) => e.cardId === open.cardId)).toBeTruthy();
    expect(existsSync(file)).toBe(false);

    await h.call('session.send', { id, text: 'TURN-1 write it now' });
    const next = await h.event(id, 'card', (c) => c.body.kind === 'write' && c.seq > ended.seq);
    await h.call('card.answer', { id, cardId: next.cardId, answer: 'allow_once' });
    expect((await turnEnd(h, id, ended.seq)).reason).toBe('finished');
    expect(await fs.readFile(file, 'utf8')).toBe('late\n');
  }, 300_000);

  it('takes up a write card left open when the app stopped: answered after the restart, the write lands', async () => {
    const write = { name: 'mcp__gatehouse__write_file', input: { path: 'kept.txt', content: 'kept\n' } };
    const { h, id } = await boot(scripted([[write]]));
    const file = path.join(h.workspace, 'kept.txt');

    await h.call('session.send', { id, text: 'TURN-0 write kept.txt' });
    await started(h, id);
    const open = await h.event(id, 'card', (c) => c.body.kind === 'write');
    await h.restart();

    const state = await h.call('session.state', { id });
    expect(state.summary.waiting).toBe(1);
    await h.call('card.answer', { id, cardId: open.cardId, answer: 'allow_once' });
    const ended = await turnEnd(h, id);
    expect(await fs.readFile(file, 'utf8')).toBe('kept\n');
    // The agent was relaunched, took up its session (Claude Code can load one), and was told the outcome.
    expect(ended.reason).toBe('finished');
    expect(fake!.requests.some((r) => r.rawBody.includes('The app restarted') && r.rawBody.includes('kept.txt'))).toBe(
      true,
    );
  }, 300_000);

  it('finds nothing of the person’s home from inside its jail, even when its own question about a read is allowed', async () => {
    const secret = 'PERSONS-SSH-KEY-0123456789';
    // The path is known once the harness is: the reply is written when the model is asked.
    const key = { file_path: '' };
    const { h, id } = await boot(
      scripted([
        [
          { name: 'Read', input: key },
          { name: 'Read', input: { file_path: '/etc/hostname' } },
        ],
      ]),
    );
    key.file_path = path.join(h.home, '.ssh', 'id_ed25519');
    await fs.mkdir(path.dirname(key.file_path), { recursive: true });
    await fs.writeFile(key.file_path, secret);

    await h.call('session.send', { id, text: 'TURN-0 read my key' });
    await started(h, id);
    // Its own reads outside the workspace may be asked about first: allowing them changes nothing of what it can see.
    const ended = await answerAsksUntilTheEnd(h, id);
    expect(ended.reason).toBe('finished');
    // Its Read works (the machine's /etc is shown read-only), but the person's key is not there.
    const [keyRead, hostRead] = toolResults(fake!);
    expect(keyRead).toMatch(/does not exist/i);
    expect(keyRead).not.toContain(secret);
    expect(hostRead).toContain(readFileSync('/etc/hostname', 'utf8').trim());
  }, 300_000);
});

/** Allows every question the agent asks of its own, until the turn ends. */
async function answerAsksUntilTheEnd(h: Harness, id: string): Promise<Extract<SessionEvent, { type: 'turn_ended' }>> {
  for (;;) {
    const state = await h.call('session.state', { id });
    const ended = state.events.find((e) => e.type === 'turn_ended');
    if (ended?.type === 'turn_ended') return ended;
    const open = state.events.filter((e) => e.type === 'card' && e.body.kind === 'agent_ask');
    const answered = new Set(state.events.flatMap((e) => (e.type === 'card_answer' ? [e.cardId] : [])));
    for (const card of open) {
      if (card.type === 'card' && !answered.has(card.cardId))
        await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
