/**
 * The calls the window needs beyond the core's first contract: taking a message out of the
 * queue, taking back returned messages, a write card's whole proposal, folder completion,
 * and the 'interrupted' status. Each refuses bad input with a clear error and changes nothing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHold } from '../../../fake-model/server.js';
import { startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('session.unqueue', () => {
  it('takes a queued message out before its turn starts, and the next one runs instead', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'working', hold }, { text: 'third done' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'first' });
    await hold.reached;
    const second = await h.call('session.send', { id, text: 'second' });
    await h.call('session.send', { id, text: 'third' });
    expect(await h.call('session.unqueue', { id, messageId: second.messageId })).toEqual({ removed: true });
    expect(await h.event(id, 'queue_removed')).toMatchObject({ messageId: second.messageId });
    hold.release();
    await h.event(id, 'result', (r) => r.summary === 'third done');
    await h.core.sessions.get(id).then((s) => s.idle());
    const users = (await h.events(id)).flatMap((e) => (e.type === 'user_message' ? [e.text] : []));
    expect(users).toEqual(['first', 'third']);
    expect((await h.call('session.state', { id })).summary.status).toBe('idle');
  });

  it('refuses a message that already started, or an unknown one, and logs nothing', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'working', hold });
    const id = await h.open();
    const first = await h.call('session.send', { id, text: 'first' });
    await hold.reached;
    const before = await h.events(id);
    const started = await h.raw('session.unqueue', { id, messageId: first.messageId });
    expect(started).toEqual({
      ok: false,
      error: `message ${first.messageId} has already started; it can no longer be taken out of the queue`,
    });
    const unknown = await h.raw('session.unqueue', { id, messageId: 'nope' });
    expect(unknown).toEqual({ ok: false, error: 'no queued message with id nope' });
    expect(await h.raw('session.unqueue', { id })).toMatchObject({
      ok: false,
      error: expect.stringContaining('messageId'),
    });
    expect(await h.events(id)).toEqual(before);
    hold.release();
    await h.event(id, 'turn_ended');
  });
});

describe('session.takeReturned', () => {
  it('hands back what a cancel returned once, then returned is empty', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'thinking', hold });
    const id = await h.open();
    await h.call('session.send', { id, text: 'first' });
    await hold.reached;
    await h.call('session.send', { id, text: 'queued one' });
    await h.call('session.cancel', { id });
    const taken = await h.call('session.takeReturned', { id });
    expect(taken.messages.map((m) => m.text)).toEqual(['queued one']);
    expect(await h.event(id, 'returned_taken')).toMatchObject({ messageIds: [taken.messages[0]!.messageId] });
    const countBefore = (await h.events(id)).length;
    expect(await h.call('session.takeReturned', { id })).toEqual({ messages: [] });
    expect(await h.events(id)).toHaveLength(countBefore);
  });

  it('gives each returned message to one of two windows asking at once', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'thinking', hold });
    const id = await h.open();
    await h.call('session.send', { id, text: 'first' });
    await hold.reached;
    await h.call('session.send', { id, text: 'queued one' });
    await h.call('session.cancel', { id });
    const [a, b] = await Promise.all([h.call('session.takeReturned', { id }), h.call('session.takeReturned', { id })]);
    expect([...a.messages, ...b.messages].map((m) => m.text)).toEqual(['queued one']);
    expect((await h.events(id)).filter((e) => e.type === 'returned_taken')).toHaveLength(1);
  });

  it('refuses an unknown session', async () => {
    h = await startHarness();
    const reply = await h.raw('session.takeReturned', { id: 'missing-session' });
    expect(reply.ok).toBe(false);
  });
});

describe('card.proposal', () => {
  it('returns every proposed byte of a write card, not just the bounded diff', async () => {
    h = await startHarness();
    const content = Array.from({ length: 3000 }, (_, i) => `line ${i} ünïcode`).join('\n');
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'big.txt', content } }] }, { text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    const proposal = await h.call('card.proposal', { id, cardId: card.cardId });
    expect(proposal).toEqual({
      path: path.join(h.workspace, 'big.txt'),
      text: content,
      bytes: Buffer.byteLength(content),
      // A new file: the other side of the open card's diff is nothing.
      diffBase: { path: path.join(h.workspace, 'big.txt'), before: null },
    });
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    await h.event(id, 'turn_ended');
  });

  it('refuses a card that is not a write card, an unknown card, and a card of another session', async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['true'] } }] });
    const id = await h.open();
    const other = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    expect(await h.raw('card.proposal', { id, cardId: card.cardId })).toEqual({
      ok: false,
      error: `card ${card.cardId} is not a write card; only writes have a proposal`,
    });
    expect(await h.raw('card.proposal', { id, cardId: 'nope' })).toEqual({
      ok: false,
      error: 'no card with id nope in this session',
    });
    expect(await h.raw('card.proposal', { id: other, cardId: card.cardId })).toMatchObject({ ok: false });
    await h.call('session.cancel', { id });
    await h.event(id, 'turn_ended');
  });
});

describe('folders.complete', () => {
  it('lists folders under the typed path through the host, with ~ as home', async () => {
    h = await startHarness();
    await fs.mkdir(path.join(h.home, 'projects'));
    await fs.writeFile(path.join(h.home, 'profile.txt'), 'x');
    expect(await h.call('folders.complete', { prefix: '~/pro' })).toEqual({
      folders: [path.join(h.home, 'projects')],
    });
  });

  it('refuses a relative or empty prefix with a clear error', async () => {
    h = await startHarness();
    expect(await h.raw('folders.complete', { prefix: 'relative/dir' })).toEqual({
      ok: false,
      error: 'type an absolute path (starting with / or ~): relative/dir',
    });
    expect(await h.raw('folders.complete', { prefix: '' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('prefix is empty'),
    });
  });
});

describe("the 'interrupted' status", () => {
  it('marks a session whose turn the app stopped as interrupted until the next turn starts', async () => {
    h = await startHarness();
    const hold = createHold();
    h.fake.enqueue({ text: 'working', hold });
    const id = await h.open();
    await h.call('session.send', { id, text: 'first' });
    await hold.reached;
    await h.restart();
    expect((await h.event(id, 'turn_ended')).reason).toBe('interrupted');
    expect((await h.call('sessions.list', {})).find((s) => s.id === id)?.status).toBe('interrupted');
    h.fake.enqueue({ text: 'again' });
    await h.call('session.send', { id, text: 'again' });
    await h.event(id, 'result', (r) => r.summary === 'again');
    await h.core.sessions.get(id).then((s) => s.idle());
    expect((await h.call('session.state', { id })).summary.status).toBe('idle');
  });
});
