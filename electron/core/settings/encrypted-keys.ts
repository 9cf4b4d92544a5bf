/**
 * API keys saved from Settings, encrypted at rest. The cipher is the OS's: the Electron
 * shell passes one built on safeStorage. Without a cipher (the web host) keys cannot be
 * saved, and the error says to use the environment instead; nothing is ever written in
 * plain text.
 *
 * A damaged store must not take Settings (and with it every turn) down: a file that
 * cannot be parsed is moved aside and the store starts empty, and a key that no longer
 * decrypts (say the OS keychain was reset) reads as absent. Either way the user re-enters
 * the key, or the environment's is used meanwhile.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Provider } from '../../../shared/contract.js';
import type { KeyStore } from '../chat/key-store.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { makePrivateDir, tightenFile } from '../files/private-files.js';
import { SerialQueue } from '../files/serial-queue.js';
import type { ErrorKind } from '../error-kind.js';

export interface Cipher {
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

export const KEYS_FILE = 'keys.json';

/** Prefix of the name a damaged keys file is moved to: `keys.json.damaged-<time>`. */
export const DAMAGED_KEYS_PREFIX = `${KEYS_FILE}.damaged-`;

const fileSchema = z.record(z.string(), z.string());

export class KeysUnavailableError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'KeysUnavailableError';
}

export class EncryptedKeys implements KeyStore {
  /** One read or read-modify-write at a time, so a damaged file is moved aside once and no set is lost. */
  private readonly queue = new SerialQueue();
  /** Whether a keys file from before keys were private (0644) has been made 0600 yet. */
  private tightened = false;

  constructor(
    private readonly dataDir: string,
    private readonly cipher: Cipher | null,
  ) {}

  canSave(): boolean {
    return this.cipher !== null;
  }

  /** The saved key, or undefined when there is none or it no longer decrypts. */
  async get(provider: Provider): Promise<string | undefined> {
    const cipher = this.cipher;
    if (!cipher) return undefined;
    const sealed = (await this.queue.run(() => this.read()))[provider];
    return sealed === undefined ? undefined : unseal(cipher, sealed);
  }

  /** True when a key is saved and still decrypts: one that does not is as good as none. */
  async has(provider: Provider): Promise<boolean> {
    return (await this.get(provider)) !== undefined;
  }

  /** Saves (or with null, forgets) a provider's key. */
  async set(provider: Provider, value: string | null): Promise<void> {
    const cipher = this.cipher;
    if (!cipher) {
      throw new KeysUnavailableError(
        'keys can only be saved in the desktop app (encrypted by the OS); here, set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment',
      );
    }
    await this.queue.run(async () => {
      const all = await this.read();
      if (value === null || value.trim() === '') delete all[provider];
      else all[provider] = cipher.encrypt(value.trim()).toString('base64');
      await makePrivateDir(this.dataDir);
      await writeFileAtomic(this.file(), JSON.stringify(all));
    });
  }

  private file(): string {
    return path.join(this.dataDir, KEYS_FILE);
  }

  /** The saved entries; a damaged file is moved aside and reads as empty. */
  private async read(): Promise<Record<string, string>> {
    if (!this.tightened) {
      await tightenFile(this.file());
      this.tightened = true;
    }
    let text: string;
    try {
      text = await fs.readFile(this.file(), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      // Not damage (permissions, I/O): moving it would not help, so say so.
      throw new KeysUnavailableError(`${KEYS_FILE} in the data folder cannot be read: ${(err as Error).message}`);
    }
    const parsed = parseKeys(text);
    if (parsed !== null) return parsed;
    await this.moveAside();
    return {};
  }

  /** Keeps the damaged file beside the store rather than deleting it: it may still be recoverable. */
  private async moveAside(): Promise<void> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    try {
      await fs.rename(this.file(), path.join(this.dataDir, `${DAMAGED_KEYS_PREFIX}${stamp}`));
    } catch (err) {
      // Another process moved it first: the store is just as empty.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new KeysUnavailableError(
        `${KEYS_FILE} in the data folder is damaged and could not be moved aside: ${(err as Error).message}`,
      );
    }
  }
}

function parseKeys(text: string): Record<string, string> | null {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Decrypts a saved key; one that fails (the OS key changed, the entry is corrupt) is absent. */
function unseal(cipher: Cipher, sealed: string): string | undefined {
  try {
    return cipher.decrypt(Buffer.from(sealed, 'base64'));
  } catch {
    return undefined;
  }
}
