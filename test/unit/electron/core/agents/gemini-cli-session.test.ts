/**
 * A Gatehouse session driven by the real, pinned Gemini CLI (`gemini --acp`), through the
 * app's contract, against a fake Gemini API on loopback: the agent's start is a card; the
 * model's own `write_file` reaches the person as a write card (Gemini writes through the
 * client, `fs/write_text_file`); its shell tool is excluded, so the gate's `run` is its one
 * way to run a command, carded and confined. The CLI comes from the agent cache CI fills
 * (test/support/agent-cache.ts); when it is missing this FAILS saying how to install it.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../../shared/events.js';
import { geminiFunctionDeclarations } from '../../../../fake-model/gemini-prompt.js';
import type { FakeModel, RecordedRequest } from '../../../../fake-model/server.js';
import type { Harness } from '../core-harness.js';
import { allowStart, bootRealAgent, turnEnd, type Booted, type Move, type RealAgent } from './real-agent-harness.js';

type CardEvent = Extract<SessionEvent, { type: 'card' }>;

const GEMINI: RealAgent = {
  id: 'gemini-cli',
  key: { name: 'GEMINI_API_KEY', value: 'AIzaTest-0123456789abcdefghij' },
  baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
  domains: ['generativelanguage.googleapis.com'],
  describe: (r) =>
    `${r.path} [${geminiFunctionDeclarations(r.body)
      .map((d) => String(d.name))
      .join(' ')}]`,
};

let booted: Booted | null = null;
let fake: FakeModel | null = null;

afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
  fake = null;
});

interface Content {
  role?: string;
  parts?: { text?: string; functionResponse?: unknown }[];
}

const contentsOf = (request: RecordedRequest): Content[] => (request.body as { contents?: Content[] }).contents ?? [];
const isMain = (request: RecordedRequest): boolean =>
  geminiFunctionDeclarations(request.body).some((d) => d.name === 'write_file');

/** The CLI's model router asks a small model for a JSON complexity score before each turn. */
const ROUTED = JSON.stringify({ complexity_reasoning: 'A single explicit step.', complexity_score: 10 });
const wantsJson = (request: RecordedRequest): boolean =>
  (request.body as { generationConfig?: { responseMimeType?: string } }).generationConfig?.responseMimeType ===
  'application/json';

/**
 * Answers the main conversation (the request that offers the CLI's tools) by turn: the
 * person's message names its turn ("TURN-n"), and each function response since then moves
 * to the turn's next call; past the last, plain text ends the turn. Anything else the CLI
 * asks (a routing or next-speaker check) gets a short text.
 */
function scripted(turns: { name: string; input: unknown }[][]): Move {
  return (request) => {
    if (wantsJson(request)) return { text: ROUTED };
    if (!isMain(request)) return { text: 'ok' };
    const contents = contentsOf(request);
    const at = contents.findLastIndex(
      (c) => c.role === 'user' && (c.parts ?? []).some((p) => /TURN-\d+/.test(p.text ?? '')),
    );
    if (at < 0) return { text: 'Done.' };
    const turn = Number(/TURN-(\d+)/.exec(JSON.stringify(contents[at]!.parts))![1]);
    const step = contents.slice(at + 1).filter((c) => (c.parts ?? []).some((p) => p.functionResponse)).length;
    const call = turns[turn]?.[step];
    return call ? { toolCalls: [{ name: call.name, input: call.input }] } : { text: 'Done.' };
  };
}

async function boot(move: Move): Promise<{ h: Harness; id: string }> {
  booted = await bootRealAgent(GEMINI, move);
  fake = booted.fake;
  const { agent } = (await booted.h.call('session.state', { id: booted.id })).summary;
  expect(agent).toMatchObject({ id: 'gemini-cli', label: 'Gemini CLI', version: '0.61.0' });
  return { h: booted.h, id: booted.id };
}

const started = (h: Harness, id: string) => allowStart(h, id, GEMINI);

/**
 * The next gate card of `kind` after `after`. Gemini CLI asks its own permission before its
 * write_file (an `agent_ask` card); each ask on the way is allowed once, so the gate's card
 * is what decides.
 */
async function gateCard(h: Harness, id: string, kind: string, after = 0): Promise<CardEvent> {
  let seq = after;
  for (;;) {
    const card = await h.event(id, 'card', (c) => c.seq > seq && (c.body.kind === kind || c.body.kind === 'agent_ask'));
    if (card.body.kind === kind) return card;
    seq = card.seq;
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
  }
}

/** The function responses the model was sent for the main conversation, as JSON texts. */
function functionResponses(fake: FakeModel): string[] {
  return fake.requests
    .filter(isMain)
    .flatMap((r) =>
      (contentsOf(r).at(-1)?.parts ?? [])
        .filter((p) => p.functionResponse)
        .map((p) => JSON.stringify(p.functionResponse)),
    );
}

describe('a session driven by the real Gemini CLI', () => {
  it('raises a write card with the diff for the model’s write_file; deny leaves the workspace as it was, allow writes, Undo takes it back', async () => {
    const write = { name: 'write_file', input: { file_path: 'hello.txt', content: 'hello\n' } };
    const { h, id } = await boot(scripted([[write], [write]]));
    const file = path.join(h.workspace, 'hello.txt');

    await h.call('session.send', { id, text: 'TURN-0 write hello.txt' });
    await started(h, id);
    const denied = await gateCard(h, id, 'write');
    if (denied.body.kind !== 'write') throw new Error('not a write card');
    expect(denied.body.path).toBe(file);
    expect(JSON.stringify(denied.body)).toContain('+hello');
    await h.call('card.answer', { id, cardId: denied.cardId, answer: 'deny' });
    const first = await turnEnd(h, id);
    expect(first.reason).toBe('finished');
    expect(existsSync(file)).toBe(false);
    // The model is told the write failed. Not in the gate's words: Gemini CLI 0.61 turns the
    // client's JSON-RPC error (a plain object) into "[object Object]".
    expect(functionResponses(fake!).some((r) => /Error writing to file/.test(r))).toBe(true);

    await h.call('session.send', { id, text: 'TURN-1 write it again' });
    const allowed = await gateCard(h, id, 'write', first.seq);
    await h.call('card.answer', { id, cardId: allowed.cardId, answer: 'allow_once' });
    const second = await turnEnd(h, id, first.seq);
    expect(second.reason).toBe('finished');
    expect(await fs.readFile(file, 'utf8')).toBe('hello\n');

    const undo = await h.call('session.undo', { id, turnId: second.turnId });
    expect(undo.restored.map((f) => f.path)).toEqual(['hello.txt']);
    expect(existsSync(file)).toBe(false);
    // Gemini asks its own permission before each write (an agent_ask card); the gate's card decides.
    const kinds = (await h.events(id)).flatMap((e) => (e.type === 'card' ? [e.body.kind] : []));
    expect(kinds).toEqual(['agent_start', 'agent_ask', 'write', 'agent_ask', 'write']);
  }, 300_000);

  it('raises a command card for the model’s mcp_gatehouse_run and runs it confined once allowed; its own shell tool is refused', async () => {
    const { h, id } = await boot(
      scripted([
        [
          { name: 'run_shell_command', input: { command: 'touch shell-was-here' } },
          { name: 'mcp_gatehouse_run', input: { argv: ['touch', 'made-by-run'] } },
        ],
      ]),
    );

    await h.call('session.send', { id, text: 'TURN-0 make a file' });
    await started(h, id);
    const card = await gateCard(h, id, 'command');
    if (card.body.kind !== 'command') throw new Error('not a command card');
    expect(card.body.argv).toEqual(['touch', 'made-by-run']);
    expect(card.body.sandbox?.confined).toBe(true);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await turnEnd(h, id);

    expect(existsSync(path.join(h.workspace, 'made-by-run'))).toBe(true);
    expect(existsSync(path.join(h.workspace, 'shell-was-here'))).toBe(false);
    // The CLI itself answers its excluded shell tool: it is not one of its tools in this session.
    const main = fake!.requests.filter(isMain);
    expect(main.every((r) => !geminiFunctionDeclarations(r.body).some((d) => d.name === 'run_shell_command'))).toBe(
      true,
    );
    expect(functionResponses(fake!)[0]).toMatch(/run_shell_command.*not found in registry/);
    const kinds = (await h.events(id)).flatMap((e) => (e.type === 'card' ? [e.body.kind] : []));
    // The CLI does not ask its own permission for the gate's tools (tools.allowed): one card, the gate's.
    expect(kinds).toEqual(['agent_start', 'command']);
  }, 300_000);
});
