/**
 * Keys at rest through safeStorage: encrypted on disk, used by the chat client, and never
 * in anything the window receives. Where the OS has no keyring (basic_text) the user is
 * asked before a key is stored; where encryption is unavailable keys cannot be saved.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../shared/events.js';
import { keyStorageOf, PLAIN_TEXT_REFUSED, PLAIN_TEXT_WARNING } from '../../../../electron/main/secrets.js';
import { startFakeModel, type FakeModel } from '../../../fake-model/server.js';
import { startShell, type Shell } from './shell-harness.js';

const SECRET = 'sk-test-do-not-leak-4f9a2c';

let shell: Shell | undefined;
let model: FakeModel | undefined;
let folder: string | undefined;
afterEach(async () => {
  await shell?.close();
  await model?.close();
  if (folder) await fs.rm(folder, { recursive: true, force: true });
  shell = model = folder = undefined;
});

describe('which key storage the OS offers', () => {
  const storage = (available: boolean, backend: string) => ({
    isEncryptionAvailable: () => available,
    encryptString: () => Buffer.alloc(0),
    decryptString: () => '',
    getSelectedStorageBackend: () => backend,
  });
  it.each([
    [true, 'gnome_libsecret', 'linux', 'os'],
    [true, 'kwallet6', 'linux', 'os'],
    [true, 'basic_text', 'linux', 'plain-text'],
    [false, 'basic_text', 'linux', 'none'],
    [true, 'unknown', 'darwin', 'os'],
    [false, 'unknown', 'win32', 'none'],
  ] as const)('encryption %s, backend %s on %s: %s', (available, backend, platform, expected) => {
    expect(keyStorageOf(storage(available, backend), platform)).toBe(expected);
  });
});

describe('a saved key', () => {
  it('is encrypted on disk, reaches the model, and never reaches the window', async () => {
    model = await startFakeModel();
    folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-ws-')));
    shell = await startShell();
    const saved = await shell.call('settings.set', {
      model: { provider: 'openai-compatible', modelId: 'llama-test', baseURL: model.openaiBaseURL },
      key: { provider: 'openai-compatible', value: SECRET },
    });
    expect(saved).toMatchObject({ ok: true, data: { keyStorage: 'os', keys: { 'openai-compatible': 'settings' } } });
    const onDisk = await fs.readFile(path.join(shell.root, 'data', 'keys.json'), 'utf8');
    expect(onDisk).not.toContain(SECRET);
    expect(Buffer.from(JSON.parse(onDisk)['openai-compatible'], 'base64').toString()).toMatch(/^os-sealed:/);

    // A whole turn with a card, so every kind of push and reply passes by.
    model.enqueue(
      { toolCalls: [{ name: 'write_file', input: { path: 'a.txt', content: 'hello' } }] },
      { text: 'done' },
    );
    const opened = (await shell.call('sessions.open', { workspace: folder })) as { data: { id: string } };
    const id = opened.data.id;
    await shell.call('session.send', { id, text: `use the key ${'please'}` });
    const card = await until(() => eventOf(shell!, id, 'card'));
    // The window was never focused: the card raised a notification.
    expect(shell.fake.notifications.map((n) => n.options.body)).toEqual([path.join(folder, 'a.txt')]);
    await shell.call('card.answer', { id, cardId: card.cardId, answer: 'allow_once' });
    await until(() => eventOf(shell!, id, 'turn_ended'));
    await shell.call('session.state', { id });
    await shell.call('settings.get', {});

    expect(model.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    const seen = JSON.stringify([shell.replies, shell.window().webContents.sent]);
    expect(seen).toContain('a.txt');
    expect(seen).not.toContain(SECRET);
    expect(seen).not.toContain(Buffer.from(SECRET).toString('hex'));
  });
});

describe('the plain-text backend', () => {
  it('is reported to Settings, and storing a key asks first: Cancel stores nothing', async () => {
    shell = await startShell({ backend: 'basic_text', messageBoxResponse: 0 });
    expect(await shell.call('settings.get', {})).toMatchObject({ data: { keyStorage: 'plain-text' } });
    const reply = await shell.call('settings.set', { key: { provider: 'anthropic', value: SECRET } });
    expect(reply).toEqual({ ok: false, error: PLAIN_TEXT_REFUSED });
    expect(shell.fake.messageBoxes).toHaveLength(1);
    expect(shell.fake.messageBoxes[0]).toMatchObject({ type: 'warning', detail: PLAIN_TEXT_WARNING, cancelId: 0 });
    await expect(fs.access(path.join(shell.root, 'data', 'keys.json'))).rejects.toThrow();
  });

  it('stores the key when the user chooses to', async () => {
    shell = await startShell({ backend: 'basic_text', messageBoxResponse: 1 });
    const reply = await shell.call('settings.set', { key: { provider: 'anthropic', value: SECRET } });
    expect(reply).toMatchObject({ ok: true, data: { keys: { anthropic: 'settings' } } });
    expect(JSON.stringify(reply)).not.toContain(SECRET);
  });

  it('does not ask to remove a key, or for settings without one', async () => {
    shell = await startShell({ backend: 'basic_text' });
    await shell.call('settings.set', { key: { provider: 'anthropic', value: null } });
    await shell.call('settings.set', { notifications: false });
    expect(shell.fake.messageBoxes).toEqual([]);
  });
});

describe('without OS encryption', () => {
  it('keys cannot be saved, and Settings says so', async () => {
    shell = await startShell({ encryption: false });
    expect(await shell.call('settings.get', {})).toMatchObject({ data: { keyStorage: 'none' } });
    const reply = await shell.call('settings.set', { key: { provider: 'anthropic', value: SECRET } });
    expect(reply).toMatchObject({ ok: false });
    expect(shell.coreOptions[0]!.cipher).toBeNull();
  });
});

async function eventOf<T extends SessionEvent['type']>(
  shell: Shell,
  id: string,
  type: T,
): Promise<Extract<SessionEvent, { type: T }> | undefined> {
  const reply = (await shell.call('session.events', { id, sinceSeq: 0 })) as { data: { events: SessionEvent[] } };
  return reply.data.events.find((e) => e.type === type) as Extract<SessionEvent, { type: T }> | undefined;
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
