/**
 * API keys at rest: the core's Cipher over Electron's safeStorage. On Linux without a
 * keyring, safeStorage falls back to its 'basic_text' backend, which only obfuscates; the
 * user is asked before a key is stored that way. Keys are decrypted only in the main
 * process, for the chat client: they never go to the renderer, a log or a command.
 *
 * Electron reports 'basic_text' as unavailable (isEncryptionAvailable() false) until
 * setUsePlainTextEncryption(true); that switch is thrown only when the person has said yes,
 * or to read back a key stored after an earlier yes.
 */
import type { SettingsView } from '../../shared/contract.js';
import type { Cipher } from '../core/settings/encrypted-keys.js';
import type { DialogLike, SafeStorageLike } from './electron-surface.js';

export type KeyStorage = SettingsView['keyStorage'];

export function keyStorageOf(safeStorage: SafeStorageLike, platform: NodeJS.Platform): KeyStorage {
  // Asked first: Electron picks its Linux backend when availability is first asked.
  const available = safeStorage.isEncryptionAvailable();
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return 'plain-text';
  return available ? 'os' : 'none';
}

export const PLAIN_TEXT_NOT_CONFIRMED = 'a key is stored without a keyring only after the user says yes';

/** Whether the person has said yes, in this run, to keys stored obfuscated. */
export class PlainTextConsent {
  private yes = false;

  constructor(private readonly safeStorage: SafeStorageLike) {}

  get given(): boolean {
    return this.yes;
  }

  /** After the person's yes: safeStorage obfuscates with its built-in password from now on. */
  give(): void {
    this.yes = true;
    this.safeStorage.setUsePlainTextEncryption(true);
  }
}

/**
 * The cipher the core stores keys with, or null when keys cannot be saved at all. With the
 * plain-text backend it encrypts only after the person's yes; it decrypts a key already on
 * disk, which was stored after a yes.
 */
export function safeStorageCipher(
  safeStorage: SafeStorageLike,
  storage: KeyStorage,
  consent: PlainTextConsent,
): Cipher | null {
  if (storage === 'none') return null;
  if (storage === 'os') {
    return {
      encrypt: (plain) => safeStorage.encryptString(plain),
      decrypt: (sealed) => safeStorage.decryptString(sealed),
    };
  }
  return {
    encrypt: (plain) => {
      if (!consent.given) throw new Error(PLAIN_TEXT_NOT_CONFIRMED);
      return safeStorage.encryptString(plain);
    },
    decrypt: (sealed) => {
      safeStorage.setUsePlainTextEncryption(true);
      return safeStorage.decryptString(sealed);
    },
  };
}

export const PLAIN_TEXT_WARNING =
  'This computer has no keyring (such as GNOME Keyring or KWallet) that Gatehouse can use, so a saved key would only be obfuscated on disk, not encrypted. Anyone who can read your files could recover it. You can set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment instead.';

export const PLAIN_TEXT_REFUSED = 'the key was not saved: you chose not to store it without a keyring';

/** Asks before a key goes to the plain-text backend; resolves true to store it. */
export async function confirmPlainTextKey(dialog: DialogLike): Promise<boolean> {
  const { response } = await dialog.showMessageBox({
    type: 'warning',
    title: 'Store the key without encryption?',
    message: 'Store the key without encryption?',
    detail: PLAIN_TEXT_WARNING,
    buttons: ['Cancel', 'Store anyway'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  return response === 1;
}

/** True for a settings.set payload that would store a key (not one that removes it). */
export function storesKey(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return false;
  const key = (payload as { key?: { value?: unknown } }).key;
  return typeof key?.value === 'string' && key.value.trim() !== '';
}
