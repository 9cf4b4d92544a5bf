/**
 * The host is the contract's one implementation: every payload is checked, every reply is
 * {ok, data} or {ok: false, error}, and a rejected request changes nothing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../../electron/core/core.js';
import { API_KEY, startHarness, type Harness } from './core-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the host checks every request at the boundary', () => {
  it.each([
    ['an unknown call', 'session.explode', {}, 'unknown call "session.explode"'],
    ['a missing field', 'session.send', { id: 'x' }, 'text'],
    ['a wrong type', 'session.events', { id: 'x', sinceSeq: 'zero' }, 'sinceSeq'],
    ['an unknown field', 'sessions.list', { extra: 1 }, 'extra'],
    ['an empty message', 'session.send', { id: 'x', text: '   ' }, 'message is empty'],
    ['an unknown answer word', 'card.answer', { id: 'x', cardId: 'c', answer: 'yes' }, 'answer'],
    ['a non-object payload', 'sessions.open', 'hello', 'bad request'],
    ['a 10 MB message', 'session.send', { id: 'x', text: 'y'.repeat(10 * 1024 * 1024) }, 'longer than'],
  ])('refuses %s with a clear error', async (_what, name, payload, message) => {
    h = await startHarness();
    const reply = await h.raw(name, payload);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toContain(message);
    expect(await fs.readdir(path.join(h.dataDir, 'sessions')).catch(() => [])).toEqual([]);
  });

  it('refuses a session id that walks out of the data folder', async () => {
    h = await startHarness();
    const reply = await h.raw('session.state', { id: '../../etc' });
    expect(reply.ok).toBe(false);
  });

  it('refuses a card answer for an unknown card, or one already answered, and changes nothing', async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: 'write_file', input: { path: 'a', content: 'a' } }] }, { text: 'ok' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    const before = await h.events(id);
    expect(await h.raw('card.answer', { id, cardId: 'not-a-card', answer: 'allow_once' })).toEqual({
      ok: false,
      error: 'no open card with id not-a-card',
    });
    expect(await h.events(id)).toEqual(before);
    await h.call('card.answer', { id, cardId: card.cardId, answer: 'deny' });
    const again = await h.raw('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    expect(again.ok).toBe(false);
    expect(!again.ok && again.error).toContain('no longer open');
    await h.event(id, 'turn_ended');
    await expect(fs.access(path.join(h.workspace, 'a'))).rejects.toThrow();
  });

  it('quotes at most 200 characters of an unknown key, however long, with invisible characters escaped', async () => {
    h = await startHarness();
    const huge = 'k'.repeat(1024 * 1024);
    const reply = await h.raw('sessions.list', { [huge]: 1, ['a\u0000b\u202Ec']: 2 });
    expect(reply.ok).toBe(false);
    const error = !reply.ok ? reply.error : '';
    expect(error.length).toBeLessThan(600);
    expect(error).toContain(
      `unknown keys "${'k'.repeat(200)}"… (cut; 1,048,576 characters in all), "a\\x00b\\u{202E}c"`,
    );
    expect(error.includes('\u0000') || error.includes('\u202E')).toBe(false);
  });

  it('escapes NUL, a direction override and a lone surrogate in an id it echoes', async () => {
    h = await startHarness();
    const id = await h.open();
    const reply = await h.raw('card.answer', { id, cardId: 'x\u0000\u202E\uD800y', answer: 'deny' });
    expect(reply).toEqual({ ok: false, error: 'no open card with id x\\x00\\u{202E}\\u{D800}y' });
  });

  it('refuses to mark a session active that no session has', async () => {
    h = await startHarness();
    const reply = await h.raw('app.activeSession', { id: 'no-such-session', visible: true });
    expect(reply).toEqual({ ok: false, error: 'no session no-such-session' });
    const id = await h.open();
    expect(await h.raw('app.activeSession', { id, visible: true })).toEqual({ ok: true, data: { id, visible: true } });
    expect(await h.raw('app.activeSession', { id: null, visible: false })).toMatchObject({ ok: true });
  });

  it('refuses to open a workspace that is not a folder', async () => {
    h = await startHarness();
    await fs.writeFile(path.join(h.root, 'file.txt'), 'x');
    const reply = await h.raw('sessions.open', { workspace: path.join(h.root, 'file.txt') });
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toContain('cannot open');
    const missing = await h.raw('sessions.open', { workspace: path.join(h.root, 'missing') });
    expect(missing.ok).toBe(false);
  });
});

describe('settings and keys', () => {
  it('never returns a key, only where one comes from', async () => {
    h = await startHarness();
    const view = await h.call('settings.get', {});
    expect(view.keys.anthropic).toBe('env');
    expect(JSON.stringify(view)).not.toContain(API_KEY);
    await h.call('settings.set', { key: { provider: 'openai', value: 'sk-saved-0123456789' } });
    const after = await h.call('settings.get', {});
    expect(after.keys.openai).toBe('settings');
    expect(JSON.stringify(after)).not.toContain('sk-saved');
    const onDisk = await fs.readFile(path.join(h.dataDir, 'keys.json'), 'utf8');
    expect(onDisk).not.toContain('sk-saved-0123456789');
  });

  it('with no model configured, still opens and lists sessions, and says plainly how to configure one', async () => {
    h = await startHarness();
    await h.call('settings.set', { model: null });
    const view = await h.call('settings.get', {});
    expect(view.problem).toMatch(/No model is configured/);
    const id = await h.open();
    const reply = await h.raw('session.send', { id, text: 'hello' });
    expect(reply).toMatchObject({ ok: false, error: expect.stringContaining('No model is configured') });
    expect(await h.events(id)).toEqual([]);
    expect((await h.call('sessions.list', {})).map((s) => s.id)).toEqual([id]);
  });

  it('refuses a model config that cannot work, naming the field', async () => {
    h = await startHarness();
    const reply = await h.raw('settings.set', { model: { provider: 'openai-compatible', modelId: 'llama' } });
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toContain('baseURL');
  });

  it('without an OS cipher (the web host) refuses to save a key and says to use the environment', async () => {
    h = await startHarness();
    const core = await createCore({ dataDir: path.join(h.root, 'data2'), env: {}, home: h.home, cipher: null });
    try {
      const reply = await core.host.call('settings.set', { key: { provider: 'anthropic', value: 'sk-x-123456789' } });
      expect(reply).toMatchObject({ ok: false, error: expect.stringContaining('ANTHROPIC_API_KEY') });
      await expect(fs.access(path.join(h.root, 'data2', 'keys.json'))).rejects.toThrow();
    } finally {
      await core.dispose();
    }
  });
});
