/** Links leave the app only as https:, opened by the OS; anything else is dropped. */
import type { ShellLike } from './electron-surface.js';

export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Returns whether the link was handed to the OS. */
export function openExternalIfSafe(shell: ShellLike, url: string): boolean {
  if (!isSafeExternalUrl(url)) return false;
  void shell.openExternal(url).catch(() => undefined);
  return true;
}
