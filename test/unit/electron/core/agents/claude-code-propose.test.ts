/**
 * The real, pinned Claude Code in a place of its own (SPEC §14, §15) proposes applying its
 * change through the gate's MCP face: its write lands in the place on the gate's write card,
 * then mcp__gatehouse__propose_apply raises the place_apply card (not Claude Code's own
 * prompt: its holds leave the tool to the gate), and Allow once writes the file into the
 * person's folder, logged as their own apply is. Needs the agent cache, as
 * claude-code-session.test.ts does.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { bootRealAgent, turnEnd, type Booted, type RealAgent } from './real-agent-harness.js';

const CLAUDE: RealAgent = {
  id: 'claude-code',
  key: { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-test-0123456789abcdef' },
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  domains: ['api.anthropic.com'],
};

let booted: Booted | null = null;
afterEach(async () => {
  await booted?.h.close();
  await booted?.fake.close();
  booted = null;
});

/** The main conversation (the one offered the gate's tools) makes these calls in order, then ends. */
function calls(steps: { name: string; input: unknown }[]) {
  return (request: { body: unknown }) => {
    const body = request.body as { tools?: { name: string }[]; messages?: { content: unknown }[] };
    if (!body.tools?.some((t) => t.name.startsWith('mcp__gatehouse__'))) return { text: 'ok' };
    const done = (body.messages ?? []).filter((m) => JSON.stringify(m.content).includes('"tool_result"')).length;
    const call = steps[done];
    return call ? { toolCalls: [{ name: call.name, input: call.input }] } : { text: 'Done.' };
  };
}

it('writes in its place, then its proposal to apply is the gate’s card, and Allow once applies it', async () => {
  booted = await bootRealAgent(
    CLAUDE,
    calls([
      { name: 'mcp__gatehouse__write_file', input: { path: 'a.txt', content: 'a, done\n' } },
      { name: 'mcp__gatehouse__propose_apply', input: { as: 'files' } },
    ]),
    { place: { files: { 'a.txt': 'a\n' } } },
  );
  const { h, id } = booted;
  await h.call('session.send', { id, text: 'finish a.txt and apply it' });
  const start = await h.event(id, 'card', (c) => c.body.kind === 'agent_start');
  await h.call('card.answer', { id, cardId: start.cardId, answer: 'allow_session' });
  const write = await h.event(id, 'card', (c) => c.body.kind === 'write');
  await h.call('card.answer', { id, cardId: write.cardId, answer: 'allow_once' });
  const apply = await h.event(id, 'card', (c) => c.body.kind === 'place_apply');
  expect(apply.body).toMatchObject({ as: 'files', origin: h.workspace, files: [{ path: 'a.txt', status: 'ready' }] });
  expect(await fs.readFile(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('a\n');
  await h.call('card.answer', { id, cardId: apply.cardId, answer: 'allow_once' });
  expect((await turnEnd(h, id)).reason).toBe('finished');
  expect(await fs.readFile(path.join(h.workspace, 'a.txt'), 'utf8')).toBe('a, done\n');
  const events = await h.events(id);
  expect(events.filter((e) => e.type === 'place_applied')).toEqual([
    expect.objectContaining({ applied: ['a.txt'], conflicts: [], failed: [] }),
  ]);
  // Claude Code did not ask its own question first: the gate's card was the only one.
  expect(events.filter((e) => e.type === 'card' && e.body.kind === 'agent_ask')).toEqual([]);
}, 300_000);
