import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DAMAGED_KEYS_PREFIX,
  EncryptedKeys,
  KEYS_FILE,
  KeysUnavailableError,
  type Cipher,
} from '../../../../../electron/core/settings/encrypted-keys.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
const KEY = 'sk-ant-test-0123456789abcdef';

/** Reversible, and its output never contains the plain text. */
const testCipher: Cipher = {
  encrypt: (plain) => Buffer.from(`sealed:${Buffer.from(plain).toString('hex')}`),
  decrypt: (sealed) => {
    const text = sealed.toString();
    if (!text.startsWith('sealed:')) throw new Error(`cannot decrypt ${text}`);
    return Buffer.from(text.slice('sealed:'.length), 'hex').toString();
  },
};

const keysFile = () => path.join(tmp.path, KEYS_FILE);

describe('EncryptedKeys', () => {
  it('saves a key encrypted, so the plain key is not in the file, and reads it back', async () => {
    const keys = new EncryptedKeys(tmp.path, testCipher);
    await keys.set('anthropic', KEY);
    const onDisk = await readFile(keysFile(), 'utf8');
    expect(onDisk).not.toContain(KEY);
    expect(Object.keys(JSON.parse(onDisk) as object)).toEqual(['anthropic']);
    expect(await keys.get('anthropic')).toBe(KEY);
    expect(await keys.has('anthropic')).toBe(true);
    expect(await new EncryptedKeys(tmp.path, testCipher).get('anthropic')).toBe(KEY);
  });

  it('keeps other providers when one is set, and trims the key', async () => {
    const keys = new EncryptedKeys(tmp.path, testCipher);
    await keys.set('anthropic', KEY);
    await keys.set('openai', '  sk-openai  ');
    expect(await keys.get('anthropic')).toBe(KEY);
    expect(await keys.get('openai')).toBe('sk-openai');
  });

  it('forgets a key set to null or blank', async () => {
    const keys = new EncryptedKeys(tmp.path, testCipher);
    await keys.set('anthropic', KEY);
    await keys.set('openai', 'sk-openai');
    await keys.set('anthropic', null);
    await keys.set('openai', '   ');
    expect(await keys.get('anthropic')).toBeUndefined();
    expect(await keys.has('openai')).toBe(false);
    expect(JSON.parse(await readFile(keysFile(), 'utf8'))).toEqual({});
  });

  it('reads nothing, and has nothing, when no file exists', async () => {
    const keys = new EncryptedKeys(tmp.path, testCipher);
    expect(await keys.get('anthropic')).toBeUndefined();
    expect(await keys.has('anthropic')).toBe(false);
  });

  it('without a cipher, refuses to save and points to ANTHROPIC_API_KEY, writing nothing', async () => {
    const keys = new EncryptedKeys(tmp.path, null);
    expect(keys.canSave()).toBe(false);
    const err = await keys.set('anthropic', KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeysUnavailableError);
    expect((err as Error).message).toMatch(/ANTHROPIC_API_KEY/);
    expect(await readdir(tmp.path)).toEqual([]);
  });

  it('moves a file that is not JSON aside, keeping its bytes, and reads as empty', async () => {
    await writeFile(keysFile(), '{"anthropic": "c2Vh');
    const keys = new EncryptedKeys(tmp.path, testCipher);
    expect(await keys.get('anthropic')).toBeUndefined();
    const names = await readdir(tmp.path);
    expect(names).toHaveLength(1);
    expect(names[0]?.startsWith(DAMAGED_KEYS_PREFIX)).toBe(true);
    // A timestamp, so a later damaged file never replaces an earlier one.
    expect(names[0]?.slice(DAMAGED_KEYS_PREFIX.length)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await readFile(path.join(tmp.path, names[0]!), 'utf8')).toBe('{"anthropic": "c2Vh');
  });

  it('moves a file of the wrong shape aside too', async () => {
    await writeFile(keysFile(), JSON.stringify({ anthropic: 42 }));
    expect(await new EncryptedKeys(tmp.path, testCipher).has('anthropic')).toBe(false);
    expect((await readdir(tmp.path)).filter((n) => n.startsWith(DAMAGED_KEYS_PREFIX))).toHaveLength(1);
  });

  it('after a damaged file, has, get and set all work and the new key is kept', async () => {
    await writeFile(keysFile(), 'not json at all');
    const keys = new EncryptedKeys(tmp.path, testCipher);
    expect(await keys.has('anthropic')).toBe(false);
    await keys.set('anthropic', KEY);
    expect(await keys.get('anthropic')).toBe(KEY);
    expect(await keys.has('anthropic')).toBe(true);
    const names = (await readdir(tmp.path)).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toBe(KEYS_FILE);
    expect(names[1]?.startsWith(DAMAGED_KEYS_PREFIX)).toBe(true);
  });

  it('moves a damaged file aside only once when calls arrive together', async () => {
    await writeFile(keysFile(), 'not json at all');
    const keys = new EncryptedKeys(tmp.path, testCipher);
    await Promise.all([keys.has('anthropic'), keys.get('openai'), keys.set('anthropic', KEY)]);
    expect(await keys.get('anthropic')).toBe(KEY);
    expect((await readdir(tmp.path)).filter((n) => n.startsWith(DAMAGED_KEYS_PREFIX))).toHaveLength(1);
  });

  it('reads a key that no longer decrypts as absent, without touching the others', async () => {
    const keys = new EncryptedKeys(tmp.path, testCipher);
    await keys.set('openai', 'sk-openai');
    const all = JSON.parse(await readFile(keysFile(), 'utf8')) as Record<string, string>;
    all.anthropic = Buffer.from('sealed by another keychain').toString('base64');
    await writeFile(keysFile(), JSON.stringify(all));
    expect(await keys.get('anthropic')).toBeUndefined();
    expect(await keys.has('anthropic')).toBe(false);
    expect(await keys.get('openai')).toBe('sk-openai');
  });

  it('replaces a key that no longer decrypts when it is entered again', async () => {
    await writeFile(keysFile(), JSON.stringify({ anthropic: Buffer.from('garbage').toString('base64') }));
    const keys = new EncryptedKeys(tmp.path, testCipher);
    await keys.set('anthropic', KEY);
    expect(await keys.get('anthropic')).toBe(KEY);
  });
});
