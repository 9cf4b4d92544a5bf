/**
 * What makes two sandbox views the same, for a sandbox started ahead of its program
 * (process/spare-sandbox.ts): the profile, the working folder and the environment, and
 * what is on disk at each of its places. bubblewrap binds and hides places by what they
 * are when it starts: a shown folder replaced since (renamed away, made again), a hidden
 * place made since (a secret store a command created) or one gone would be seen otherwise
 * than by a sandbox started now, so each place's identity (device, inode, kind) is part of
 * the key; a spare of another key is not used. Contents change freely: a bind shows a
 * folder's live contents.
 */
import { promises as fs } from 'node:fs';
import type { SandboxProfile } from './sandbox.js';

export async function viewKey(profile: SandboxProfile, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const places = [profile.home, ...profile.shown, ...profile.writable, ...profile.readOnly, ...profile.hidden];
  const identities = await Promise.all(places.map(identityOf));
  return JSON.stringify({ profile, cwd, env, identities });
}

async function identityOf(place: string): Promise<string> {
  const st = await fs.stat(place).catch(() => null);
  if (!st) return '-';
  return `${st.dev}:${st.ino}:${st.isDirectory() ? 'd' : 'f'}`;
}
