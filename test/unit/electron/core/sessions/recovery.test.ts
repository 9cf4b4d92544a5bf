/**
 * Restarts at awkward moments, found by review: a damaged log, reused tool call ids, a
 * queue between turns, a Stop hook's card after a plain-text finish, pending calls.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHold } from '../../../../fake-model/server.js';
import { providerCases, startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const openai = providerCases[1]!;

describe('start-up', () => {
  it('reports a session whose log is damaged and still starts, listing the others', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'a' }, { text: 'b' });
    const good = await h.open();
    const bad = await h.open();
    for (const id of [good, bad]) {
      await h.call('session.send', { id, text: 'x' });
      await h.event(id, 'turn_ended');
    }
    const log = path.join(h.dataDir, 'sessions', bad, 'events.jsonl');
    const lines = (await fs.readFile(log, 'utf8')).split('\n');
    lines[1] = '{"this is not": an event';
    await fs.writeFile(log, lines.join('\n'));
    await h.restart();
    expect(h.core.unreadable.map((u) => u.name)).toEqual([bad]);
    expect(h.core.unreadable[0]!.error).toContain('line 2');
    expect((await h.call('sessions.list', {})).map((s) => s.id)).toEqual([good]);
  });
});

describe('a restart', () => {
  it('keeps the open card of a call whose id an earlier call of the turn also used', async () => {
    h = await startHarness(openai);
    h.fake.enqueue(
      { toolCalls: [{ id: 'call_0', name: 'list_dir', input: { path: '.' } }] },
      { toolCalls: [{ id: 'call_0', name: 'write_file', input: { path: 'w.txt', content: 'w\n' } }] },
    );
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.restart();
    h.fake.enqueue({ text: 'done' });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    expect(await fs.readFile(path.join(h.workspace, 'w.txt'), 'utf8')).toBe('w\n');
  });

  it('hands back messages queued when the app stopped between two turns', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'first', hold });
    const id = await h.open();
    await h.call('session.send', { id, text: 'one' });
    await hold.reached;
    await h.call('session.send', { id, text: 'two' });
    await h.core.dispose();
    // The turn ends on disk, but the process is gone before the queued message starts.
    const log = path.join(h.dataDir, 'sessions', id, 'events.jsonl');
    const events = (await fs.readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const turnId = events.find((e) => e.type === 'turn_started').turnId;
    const end = {
      seq: events.length + 1,
      ts: new Date().toISOString(),
      type: 'turn_ended',
      turnId,
      reason: 'finished',
    };
    await fs.appendFile(log, `${JSON.stringify(end)}\n`);
    await h.restart();
    const state = await h.call('session.state', { id });
    expect(state.events.at(-1)).toMatchObject({ type: 'queue_returned' });
    expect(state.summary.status).toBe('idle');
  });

  it('runs the Stop hooks again for a plain-text finish whose hook card was open', async () => {
    h = await startHarness();
    await fs.mkdir(path.join(h.workspace, '.gatehouse'));
    await fs.writeFile(
      path.join(h.workspace, '.gatehouse/settings.json'),
      JSON.stringify({ hooks: { stop: [['true']] } }),
    );
    h.fake.enqueue({ text: 'All done.' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.restart();
    const again = await h.event(id, 'card', (c) => c.cardId !== card.cardId);
    expect(again.body).toMatchObject({ kind: 'command', argv: ['true'] });
    expect(await h.raw('card.answer', { id, cardId: card.cardId, answer: 'allow_once' })).toMatchObject({ ok: false });
    await h.call('card.answer', { id, cardId: again.cardId, answer: 'allow_once' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    expect((await h.events(id)).find((e) => e.type === 'result')).toMatchObject({ summary: 'All done.' });
    expect(h.fake.requests).toHaveLength(1);
  });

  it('gives every call left without a result an "interrupted" result', async () => {
    h = await startHarness();
    const script = 'sleep 30';
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', script] } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await h.event(id, 'card_answer');
    await h.restart();
    const events = await h.events(id);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ ok: false, output: expect.stringContaining('interrupted') });
    expect(events.at(-1)).toMatchObject({ type: 'turn_ended', reason: 'interrupted' });
  });
});

describe('a key saved in Settings', () => {
  it('never reaches a command, whatever variable carries the same value', async () => {
    h = await startHarness();
    const saved = 'sk-saved-key-9f8e7d6c5b4a';
    h.env.SOME_ALIAS = saved;
    await h.restart();
    await h.call('settings.set', { key: { provider: 'openai', value: saved } });
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['env'] } }] }, { text: 'done' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'env' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await h.event(id, 'turn_ended');
    const result = (await h.events(id)).find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.output).toContain('HOME=');
    expect(JSON.stringify(result)).not.toContain(saved);
  });
});
