/**
 * Which shell the terminal runs: the user's own ($SHELL), else bash, else sh; on Windows
 * PowerShell. The terminal is the user's, not the agent's, so it is their login choice.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function userShell(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  exists: (file: string) => boolean = existsSync,
): string {
  if (platform === 'win32') return 'powershell.exe';
  const own = env.SHELL?.trim();
  if (own && path.isAbsolute(own) && exists(own)) return own;
  return exists('/bin/bash') ? '/bin/bash' : '/bin/sh';
}
