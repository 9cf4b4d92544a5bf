/**
 * API keys saved from Settings, encrypted at rest. The cipher is the OS's: the Electron
 * shell passes one built on safeStorage. Without a cipher (the web host) keys cannot be
 * saved, and the error says to use the environment instead; nothing is ever written in
 * plain text.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Provider } from '../../../shared/contract.js';
import type { KeyStore } from '../chat/key-store.js';
import { writeFileAtomic } from '../log/atomic-file.js';

export interface Cipher {
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

export const KEYS_FILE = 'keys.json';

const fileSchema = z.record(z.string(), z.string());

export class KeysUnavailableError extends Error {
  override readonly name = 'KeysUnavailableError';
}

export class EncryptedKeys implements KeyStore {
  constructor(
    private readonly dataDir: string,
    private readonly cipher: Cipher | null,
  ) {}

  canSave(): boolean {
    return this.cipher !== null;
  }

  async get(provider: Provider): Promise<string | undefined> {
    if (!this.cipher) return undefined;
    const sealed = (await this.read())[provider];
    return sealed ? this.cipher.decrypt(Buffer.from(sealed, 'base64')) : undefined;
  }

  async has(provider: Provider): Promise<boolean> {
    return this.cipher !== null && (await this.read())[provider] !== undefined;
  }

  /** Saves (or with null, forgets) a provider's key. */
  async set(provider: Provider, value: string | null): Promise<void> {
    if (!this.cipher) {
      throw new KeysUnavailableError(
        'keys can only be saved in the desktop app (encrypted by the OS); here, set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment',
      );
    }
    const all = await this.read();
    if (value === null || value.trim() === '') delete all[provider];
    else all[provider] = this.cipher.encrypt(value.trim()).toString('base64');
    await fs.mkdir(this.dataDir, { recursive: true });
    await writeFileAtomic(path.join(this.dataDir, KEYS_FILE), JSON.stringify(all));
  }

  private async read(): Promise<Record<string, string>> {
    try {
      return fileSchema.parse(JSON.parse(await fs.readFile(path.join(this.dataDir, KEYS_FILE), 'utf8')));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new KeysUnavailableError(`${KEYS_FILE} in the data folder is damaged; re-enter the keys in Settings`);
    }
  }
}
