/**
 * Many sessions at once, the queue, cancel, and restarts, through the host.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHold } from '../../../../fake-model/server.js';
import { hostGroupOf } from '../sandbox/host-pids.js';
import { liveGroupMembers } from '../../../../../electron/core/process/group-liveness.js';
import { providerCases, startHarness, type Harness } from '../core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const anthropic = providerCases[0]!;

describe('one task per running turn', () => {
  it('queues a message sent during a live turn and runs it after, first in first out', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'working', hold }, { text: 'second done' }, { text: 'third done' });
    const id = await h.open();
    expect(await h.call('session.send', { id, text: 'first' })).toMatchObject({ status: 'started' });
    await hold.reached;
    expect(await h.call('session.send', { id, text: 'second' })).toMatchObject({ status: 'queued' });
    expect(await h.call('session.send', { id, text: 'third' })).toMatchObject({ status: 'queued' });
    hold.release();
    await h.event(id, 'result', (r) => r.summary === 'third done');
    const users = (await h.events(id))
      .filter((e) => e.type === 'user_message')
      .map((e) => e.type === 'user_message' && e.text);
    expect(users).toEqual(['first', 'second', 'third']);
    expect(anthropic.read(h.fake.requests[2]!).roles).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('refuses a new message while a card is open, with a clear error, and logs nothing', async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'a', content: 'a' } }] }, { text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    const before = await h.events(id);
    expect(await h.raw('session.send', { id, text: 'more' })).toEqual({
      ok: false,
      error: 'answer the open card first',
    });
    expect(await h.events(id)).toEqual(before);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');
  });

  it('runs two sessions at once: one waits on a card while the other finishes', async () => {
    h = await startHarness();
    const a = await h.open();
    const b = await h.open();
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['true'] } }] });
    await h.call('session.send', { id: a, text: 'a' });
    const card = await h.event(a, 'card');
    h.fake.enqueue({ text: 'b is done' });
    expect(await h.call('session.send', { id: b, text: 'b' })).toMatchObject({ status: 'started' });
    expect((await h.event(b, 'turn_ended')).reason).toBe('finished');
    const list = await h.call('sessions.list', {});
    expect(list.find((s) => s.id === a)).toMatchObject({ status: 'waiting', waiting: 1 });
    expect(list.find((s) => s.id === b)).toMatchObject({ status: 'idle' });
    h.fake.enqueue({ text: 'a is done' });
    await h.call('card.answer', { id: a, cardId: card.cardId, answer: 'allow_once' });
    expect((await h.event(a, 'turn_ended')).reason).toBe('finished');
  });
});

describe('cancel', () => {
  it('aborts the model stream at once and hands queued messages back', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'thinking', hold });
    const id = await h.open();
    await h.call('session.send', { id, text: 'first' });
    await hold.reached;
    await h.call('session.send', { id, text: 'queued one' });
    const result = await h.call('session.cancel', { id });
    expect(result.cancelled).toBe(true);
    expect(result.returned.map((q) => q.text)).toEqual(['queued one']);
    await hold.clientGone;
    expect((await h.event(id, 'turn_ended')).reason).toBe('cancelled');
    const state = await h.call('session.state', { id });
    expect(state.summary.status).toBe('idle');
    expect(state.events.some((e) => e.type === 'queue_returned')).toBe(true);
    expect(h.fake.requests).toHaveLength(1);
  });

  it('withdraws an open card, and the write never happens', async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.call('session.cancel', { id });
    expect(await h.event(id, 'card_withdrawn')).toMatchObject({ cardId: card.cardId });
    expect((await h.event(id, 'turn_ended')).reason).toBe('cancelled');
    expect(await h.raw('card.answer', { id, cardId: card.cardId, answer: 'allow_once' })).toMatchObject({ ok: false });
    await expect(fs.access(path.join(h.workspace, 'a.txt'))).rejects.toThrow();
    const events = await h.events(id);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ ok: false });
  });

  it('kills a long command and its whole process group within 2.5 s', async () => {
    h = await startHarness();
    const script = 'trap "" TERM; sleep 100 & echo $$; wait';
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', script] } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    const output = await waitForOutput(h);
    // The command runs confined: $$ is its pid inside the sandbox; the host's group holds the sandbox.
    const pgid = (await hostGroupOf(Number(output.trim()), script)) ?? 0;
    expect((await liveGroupMembers(pgid)).length).toBeGreaterThan(0);
    const started = Date.now();
    await h.call('session.cancel', { id });
    expect(await liveGroupMembers(pgid)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_500 + 1_000);
    expect((await h.event(id, 'turn_ended')).reason).toBe('cancelled');
  });
});

async function waitForOutput(h: Harness): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const push = h.pushes.find((p) => p.name === 'session.output');
    if (push?.name === 'session.output') return push.payload.chunk;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no live output');
}

describe('restart', () => {
  it('shows a card that was open when the host stopped, and answering it finishes the turn', async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'kept.txt', content: 'kept\n' } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.restart();
    const state = await h.call('session.state', { id });
    expect(state.summary).toMatchObject({ status: 'waiting', waiting: 1 });
    h.fake.enqueue({ toolCalls: [{ name: 'finish', input: { summary: 'after restart' } }] });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    expect((await h.event(id, 'turn_ended')).reason).toBe('finished');
    expect(await fs.readFile(path.join(h.workspace, 'kept.txt'), 'utf8')).toBe('kept\n');
    const sent = anthropic.read(h.fake.requests.at(-1)!);
    expect(sent.priorCalls.map((c) => c.name)).toEqual(['write_file']);
    expect(sent.priorResults).toHaveLength(1);
  });

  it('re-asks a write card whose file changed while the app was down', async () => {
    h = await startHarness();
    await fs.writeFile(path.join(h.workspace, 'f.txt'), 'one\n');
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'f.txt', content: 'three\n' } }] });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    await h.core.dispose();
    await fs.writeFile(path.join(h.workspace, 'f.txt'), 'two\n');
    await h.restart();
    const again = await h.event(id, 'card', (c) => c.cardId !== card.cardId);
    expect(again.reasked?.previousCardId).toBe(card.cardId);
    expect(again.body.kind === 'write' && again.body.diff).toContain('-two');
    h.fake.enqueue({ text: 'done' });
    await h.call('card.answer', { id, cardId: again.cardId, answer: 'allow_once' });
    await h.event(id, 'turn_ended');
    expect(await fs.readFile(path.join(h.workspace, 'f.txt'), 'utf8')).toBe('three\n');
  });

  it('marks a turn that was running with nothing open as interrupted, and the session stays usable', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'thinking', hold });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    await hold.reached;
    await h.restart();
    const ended = await h.event(id, 'turn_ended');
    expect(ended.reason).toBe('interrupted');
    h.fake.enqueue({ text: 'fine now' });
    await h.call('session.send', { id, text: 'again' });
    await h.event(id, 'result', (r) => r.summary === 'fine now');
  });

  it('lists every session on disk after a restart, with its transcript', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'one' }, { text: 'two' });
    const a = await h.open();
    const b = await h.open();
    await h.call('session.send', { id: a, text: 'x' });
    await h.event(a, 'turn_ended');
    await h.call('session.send', { id: b, text: 'y' });
    await h.event(b, 'turn_ended');
    await h.restart();
    const list = await h.call('sessions.list', {});
    expect(list.map((s) => s.id).sort()).toEqual([a, b].sort());
    expect((await h.events(a)).find((e) => e.type === 'result')).toMatchObject({ summary: 'one' });
  });
});
