/**
 * Keys at rest through safeStorage: encrypted on disk, used by the chat client, and never
 * in anything the window receives. Where the OS has no keyring (basic_text) the user is
 * asked before a key is stored; where encryption is unavailable keys cannot be saved. The
 * fake's safeStorage behaves as Electron's: basic_text is unavailable until
 * setUsePlainTextEncryption(true).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../shared/events.js';
import {
  keyStorageOf,
  PLAIN_TEXT_NOT_CONFIRMED,
  PLAIN_TEXT_REFUSED,
  PLAIN_TEXT_WARNING,
  PlainTextConsent,
  safeStorageCipher,
} from '../../../../electron/main/secrets.js';
import { createFakeElectron } from './fake-electron.js';
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
    setUsePlainTextEncryption: () => undefined,
    getSelectedStorageBackend: () => backend,
  });
  it.each([
    [true, 'gnome_libsecret', 'linux', 'os'],
    [true, 'kwallet6', 'linux', 'os'],
    [false, 'gnome_libsecret', 'linux', 'none'],
    // Electron's basic_text before setUsePlainTextEncryption(true): a key can still be kept.
    [false, 'basic_text', 'linux', 'plain-text'],
    [true, 'basic_text', 'linux', 'plain-text'],
    [true, 'unknown', 'darwin', 'os'],
    [false, 'unknown', 'win32', 'none'],
  ] as const)('encryption %s, backend %s on %s: %s', (available, backend, platform, expected) => {
    expect(keyStorageOf(storage(available, backend), platform)).toBe(expected);
  });

  it('asks for availability before the backend, which Electron picks only then', async () => {
    const { electron } = createFakeElectron({ backend: 'basic_text' });
    await electron.app.whenReady();
    expect(keyStorageOf(electron.safeStorage, 'linux')).toBe('plain-text');
  });
});

describe("the fake's safeStorage, as Electron's", () => {
  it('has nothing before the app is ready', () => {
    const { electron } = createFakeElectron();
    expect(electron.safeStorage.isEncryptionAvailable()).toBe(false);
    expect(() => electron.safeStorage.encryptString('x')).toThrow('before app is ready');
  });

  it('offers basic_text only after setUsePlainTextEncryption(true)', async () => {
    const { electron } = createFakeElectron({ backend: 'basic_text' });
    await electron.app.whenReady();
    expect(electron.safeStorage.getSelectedStorageBackend?.()).toBe('unknown');
    expect(electron.safeStorage.isEncryptionAvailable()).toBe(false);
    expect(electron.safeStorage.getSelectedStorageBackend?.()).toBe('basic_text');
    expect(() => electron.safeStorage.encryptString(SECRET)).toThrow('Encryption is not available');
    electron.safeStorage.setUsePlainTextEncryption(true);
    expect(electron.safeStorage.isEncryptionAvailable()).toBe(true);
    expect(electron.safeStorage.decryptString(electron.safeStorage.encryptString(SECRET))).toBe(SECRET);
  });
});

describe('the plain-text cipher', () => {
  it('will not encrypt before the yes, even after a key was read back', async () => {
    const fake = createFakeElectron({ backend: 'basic_text' });
    await fake.electron.app.whenReady();
    const consent = new PlainTextConsent(fake.electron.safeStorage);
    const cipher = safeStorageCipher(fake.electron.safeStorage, 'plain-text', consent)!;
    const sealed = Buffer.from(`plain-sealed:${Buffer.from(SECRET).toString('hex')}`);
    expect(cipher.decrypt(sealed)).toBe(SECRET);
    expect(() => cipher.encrypt('another key')).toThrow(PLAIN_TEXT_NOT_CONFIRMED);
    consent.give();
    expect(cipher.decrypt(cipher.encrypt('another key'))).toBe('another key');
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
    // Electron was never told to obfuscate.
    expect(shell.fake.safeStorage.plainTextSwitches).toEqual([]);
  });

  it('stores the key, obfuscated, when the user chooses to', async () => {
    shell = await startShell({ backend: 'basic_text', messageBoxResponse: 1 });
    const reply = await shell.call('settings.set', { key: { provider: 'anthropic', value: SECRET } });
    expect(reply).toMatchObject({ ok: true, data: { keys: { anthropic: 'settings' } } });
    expect(JSON.stringify(reply)).not.toContain(SECRET);
    expect(shell.fake.safeStorage.usePlainText).toBe(true);
    const onDisk = await fs.readFile(path.join(shell.root, 'data', 'keys.json'), 'utf8');
    expect(onDisk).not.toContain(SECRET);
    expect(Buffer.from(JSON.parse(onDisk).anthropic, 'base64').toString()).toMatch(/^plain-sealed:/);
  });

  it('reads back, in the next run, a key stored after a yes, without asking again', async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-data-'));
    const userData = path.join(folder, 'data');
    const first = await startShell({ backend: 'basic_text', messageBoxResponse: 1, userData });
    await first.call('settings.set', { key: { provider: 'anthropic', value: SECRET } });
    await first.close();
    shell = await startShell({ backend: 'basic_text', messageBoxResponse: 0, userData });
    expect(await shell.call('settings.get', {})).toMatchObject({ data: { keys: { anthropic: 'settings' } } });
    expect(shell.fake.messageBoxes).toEqual([]);
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
