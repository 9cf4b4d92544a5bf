/**
 * Session folders are 0700 and their files 0600 (SPEC §11), from creation on, after every
 * kind of write, and for a session written by an older version once it is opened again.
 * (Tests may run as root, which reads anything; the modes are still what stat reports.)
 */
import { chmod, mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../../../../electron/core/log/session-store.js';
import { AppSettings } from '../../../../../electron/core/settings/app-settings.js';
import { EncryptedKeys, type Cipher } from '../../../../../electron/core/settings/encrypted-keys.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();
const cipher: Cipher = { encrypt: (plain) => Buffer.from(plain).reverse(), decrypt: (b) => b.reverse().toString() };
const init = { workspace: '/home/dev/project', title: 't', model: null };

async function modeOf(file: string): Promise<string> {
  return ((await stat(file)).mode & 0o777).toString(8);
}

/** The data folder does not exist yet, as on a first run. */
const dataDir = () => path.join(tmp.path, 'data');

describe('a new session', () => {
  it('is private from creation: the data folder, sessions/, its folder, events.jsonl and meta.json', async () => {
    const store = new SessionStore({ dataDir: dataDir() });
    const session = await store.create(init);
    for (const dir of [dataDir(), path.join(dataDir(), 'sessions'), session.dir]) expect(await modeOf(dir)).toBe('700');
    expect(await modeOf(path.join(session.dir, 'events.jsonl'))).toBe('600');
    expect(await modeOf(path.join(session.dir, 'meta.json'))).toBe('600');
    await store.dispose();
  });

  it('stays private after an append, a meta update and a blob', async () => {
    const store = new SessionStore({ dataDir: dataDir() });
    const session = await store.create(init);
    await session.log.append({ type: 'user_message', messageId: 'm1', text: 'hello' });
    await session.updateMeta((meta) => ({ ...meta, title: 'renamed' }));
    const blob = await session.blobs.put('proposed bytes');
    expect(await modeOf(path.join(session.dir, 'events.jsonl'))).toBe('600');
    expect(await modeOf(path.join(session.dir, 'meta.json'))).toBe('600');
    expect(await modeOf(path.join(session.dir, 'blobs'))).toBe('700');
    expect(await modeOf(path.join(session.dir, 'blobs', blob))).toBe('600');
    await store.dispose();
  });
});

describe('settings and keys', () => {
  it('are written 0600 in a data folder made 0700', async () => {
    await new AppSettings(dataDir()).write({
      model: null,
      notifications: false,
      refuseUnconfined: false,
      shownPlaces: [],
      checkpointLimitBytes: 1024 ** 3,
      agentDomains: {},
    });
    expect(await modeOf(dataDir())).toBe('700');
    expect(await modeOf(path.join(dataDir(), 'settings.json'))).toBe('600');
    await new EncryptedKeys(dataDir(), cipher).set('anthropic', 'sk-test-0123456789');
    expect(await modeOf(path.join(dataDir(), 'keys.json'))).toBe('600');
  });

  it('written by an older version (0644) become 0600 when read', async () => {
    await mkdir(dataDir());
    await writeFile(path.join(dataDir(), 'settings.json'), '{"model":null}', { mode: 0o644 });
    await writeFile(path.join(dataDir(), 'keys.json'), '{}', { mode: 0o644 });
    expect((await new AppSettings(dataDir()).read()).problem).toBeNull();
    expect(await new EncryptedKeys(dataDir(), cipher).has('openai')).toBe(false);
    expect(await modeOf(path.join(dataDir(), 'settings.json'))).toBe('600');
    expect(await modeOf(path.join(dataDir(), 'keys.json'))).toBe('600');
  });
});

describe('a session from before (0755 folders, 0644 files)', () => {
  it('is tightened when opened, leaving what a symlink points at alone', async () => {
    const first = new SessionStore({ dataDir: dataDir() });
    const session = await first.create(init);
    const blob = await session.blobs.put('old bytes');
    await session.log.append({ type: 'user_message', messageId: 'm1', text: 'old' });
    await first.dispose();
    const outside = path.join(tmp.path, 'outside.txt');
    await writeFile(outside, 'not the app’s', { mode: 0o644 });
    await symlink(outside, path.join(session.dir, 'link'));
    await widen(dataDir(), session.dir, blob);

    const store = new SessionStore({ dataDir: dataDir() });
    const reopened = await store.open(session.id);
    expect(await modeOf(path.join(dataDir(), 'sessions'))).toBe('700');
    expect(await modeOf(reopened.dir)).toBe('700');
    expect(await modeOf(path.join(reopened.dir, 'blobs'))).toBe('700');
    for (const file of ['events.jsonl', 'meta.json', `blobs/${blob}`]) {
      expect(await modeOf(path.join(reopened.dir, file))).toBe('600');
    }
    expect(await modeOf(outside)).toBe('644');
    expect((await reopened.log.readEvents()).map((e) => e.type)).toEqual(['user_message']);
    await store.dispose();
  });
});

/** What an older version left: folders 0755, files 0644. */
async function widen(data: string, dir: string, blob: string): Promise<void> {
  for (const folder of [path.join(data, 'sessions'), dir, path.join(dir, 'blobs')]) await chmod(folder, 0o755);
  for (const file of ['events.jsonl', 'meta.json', `blobs/${blob}`]) await chmod(path.join(dir, file), 0o644);
  expect(await modeOf(path.join(dir, 'meta.json'))).toBe('644');
}
