/**
 * Whole turns, end to end: the host, a session, the runner, the gate and the real tools,
 * against the fake model over HTTP through each real AI SDK provider.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY, providerCases, startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(providerCases)('a full turn through $name', (provider) => {
  it('reads freely, writes after allow_once, never starts a denied command, and finishes', async () => {
    h = await startHarness(provider);
    await fs.writeFile(path.join(h.workspace, 'README.md'), 'readme body\n');
    await fs.writeFile(path.join(h.workspace, 'AGENTS.md'), 'Always write tests first.');
    await fs.mkdir(path.join(h.workspace, '.gatehouse/skills/release'), { recursive: true });
    await fs.writeFile(
      path.join(h.workspace, '.gatehouse/skills/release/SKILL.md'),
      '---\nname: release\ndescription: How to cut a release\n---\nSteps.',
    );
    h.fake.enqueue(
      { text: 'Let me look.', toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: 'out.txt', content: 'hello\n' } }] },
      { toolCalls: [{ name: 'run', input: { argv: ['touch', 'ran-marker'] } }] },
      { toolCalls: [{ name: 'finish', input: { summary: 'wrote out.txt' } }] },
    );
    const id = await h.open();
    expect(await h.call('session.send', { id, text: 'make out.txt' })).toMatchObject({ status: 'started' });

    const write = await h.event(id, 'card', (c) => c.body.kind === 'write');
    expect(write.body).toMatchObject({ kind: 'write', path: path.join(h.workspace, 'out.txt'), creates: true });
    expect(write.body.kind === 'write' && write.body.diff).toContain('+hello');
    await h.call('card.answer', { id, cardId: write.cardId, answer: 'allow_once' });

    const command = await h.event(id, 'card', (c) => c.body.kind === 'command');
    expect(command.body).toEqual({
      kind: 'command',
      tool: 'run',
      argv: ['touch', 'ran-marker'],
      cwd: h.workspace,
      // Confined by default: writes only in the workspace, no network.
      sandbox: expect.objectContaining({ confined: true, network: false, writable: [h.workspace] }),
    });
    await h.call('card.answer', { id, cardId: command.cardId, answer: 'deny' });

    const ended = await h.event(id, 'turn_ended');
    expect(ended.reason).toBe('finished');
    expect(await fs.readFile(path.join(h.workspace, 'out.txt'), 'utf8')).toBe('hello\n');
    await expect(fs.access(path.join(h.workspace, 'ran-marker'))).rejects.toThrow();

    const events = await h.events(id);
    expect(events.filter((e) => e.type === 'card')).toHaveLength(2);
    expect(events.find((e) => e.type === 'result')).toMatchObject({ summary: 'wrote out.txt' });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

    expect(h.fake.requests).toHaveLength(4);
    const sent = h.fake.requests.map((r) => provider.read(r));
    expect(sent[0]!.system).toContain('Always write tests first.');
    expect(sent[0]!.system).toContain('release: How to cut a release');
    expect(sent[0]!.toolNames.sort()).toEqual(
      ['ask', 'finish', 'grep', 'list_dir', 'read_file', 'run', 'search_replace', 'use_skill', 'write_file'].sort(),
    );
    expect(sent[1]!.priorResults[0]!.text).toContain('readme body');
    expect(sent[3]!.priorResults.at(-1)!.text).toContain('denied by the user');
    const summary = (await h.call('sessions.list', {})).find((s) => s.id === id);
    expect(summary).toMatchObject({ status: 'idle', waiting: 0, model: { provider: provider.name } });
  });
});

describe('what the model is sent', () => {
  it('never carries an API key in a command output, even when the command prints its whole environment', async () => {
    h = await startHarness(providerCases[0]);
    h.env.SOME_TOKEN_ALIAS = API_KEY;
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['env'] } }] }, { text: 'done' });
    await h.restart();
    const id = await h.open();
    await h.call('session.send', { id, text: 'print env' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await h.event(id, 'turn_ended');
    const result = (await h.events(id)).find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.output).toContain('HOME=');
    for (const request of h.fake.requests.slice(1)) {
      expect(request.rawBody).not.toContain(API_KEY);
      expect(request.rawBody).not.toContain('ANTHROPIC_API_KEY');
    }
    const log = await fs.readFile(path.join(h.dataDir, 'sessions', id, 'events.jsonl'), 'utf8');
    expect(log).not.toContain(API_KEY);
  });
});
