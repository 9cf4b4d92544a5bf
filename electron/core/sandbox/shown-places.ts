/**
 * The places a person adds in Settings for confined commands to see, read-only (SPEC §9),
 * checked once when they are saved: an existing folder or file, given as an absolute
 * path or under ~, that is not the whole home folder or the root (that would undo the
 * allow-list), not a folder that holds many tools' settings (`~/.config`, `~/.local`,
 * `~/.cache`), and not a secret store, inside one or holding one (secret-stores.ts): the
 * person is asked for the tool's own folder instead. Secret stores, credential files and
 * the app's data folder inside a shown place stay hidden all the same (profile.ts).
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SHOWN_HOME_PLACES } from './home-allow-list.js';
import { SECRET_STORES } from './secret-stores.js';
import { isWithin } from './within.js';

/** At most this many places: each is a mount on every command. */
export const MAX_SHOWN_PLACES = 64;

/** Folders of the home folder where many tools keep their settings, credentials among them. */
export const BROAD_HOME_FOLDERS: readonly string[] = ['.config', '.local', '.local/share', '.local/state', '.cache'];

const ASK_FOR_THE_TOOLS_FOLDER = "add the tool's own folder instead, such as ~/.config/nvim or ~/.sdkman";

export function checkShownPlace(input: string, home: string): { path: string } | { error: string } {
  const typed = input.trim();
  if (!typed) return { error: 'the path is empty' };
  const expanded = typed === '~' || typed.startsWith('~/') ? path.join(home, typed.slice(1)) : typed;
  if (!path.isAbsolute(expanded)) return { error: `${typed} is not an absolute path (start it with / or ~/)` };
  let real: string;
  try {
    real = realpathSync.native(expanded);
    statSync(real);
  } catch {
    return { error: `${typed} does not exist` };
  }
  const error = whyNotShown(typed, real, realOrSelf(home));
  return error ? { error } : { path: real };
}

/** Why this real place may not be shown whole, or null. */
function whyNotShown(typed: string, real: string, home: string): string | null {
  if (real === '/' || isWithin(home, real)) {
    return `${typed} holds your whole home folder; add the folder a tool needs, such as ~/.sdkman`;
  }
  if (BROAD_HOME_FOLDERS.some((rel) => real === path.join(home, rel))) {
    return `${typed} holds the settings of many tools, their tokens and keys among them; ${ASK_FOR_THE_TOOLS_FOLDER}`;
  }
  for (const store of SECRET_STORES) {
    // Where it lies and, when that is a link, where it lands.
    const places = [path.join(home, store.path), realOrSelf(path.join(home, store.path))];
    if (places.some((at) => isWithin(real, at))) {
      return `${typed} is a secret store (${store.why}), which commands never see`;
    }
    if (places.some((at) => isWithin(at, real))) {
      return `${typed} holds ~/${store.path} (${store.why}), which commands never see; ${ASK_FOR_THE_TOOLS_FOLDER}`;
    }
  }
  return null;
}

export interface ToolchainPlace {
  /** Absolute, with each `*` of the list's entry filled in. */
  path: string;
  /** Downloaded packages only (home-allow-list.ts): the credential-file search skips it. */
  cache: boolean;
}

/** The toolchain places that exist on this machine: what every command sees of the home folder. */
export function toolchainPlaces(home: string): string[] {
  return existingToolchainPlaces(home).map((p) => p.path);
}

/** The same, each with whether it is a cache. */
export function existingToolchainPlaces(home: string): ToolchainPlace[] {
  return SHOWN_HOME_PLACES.flatMap((place) =>
    expand(home, place.path.split('/')).map((p) => ({ path: p, cache: place.cache === true })),
  );
}

/** The existing paths below `dir` that `parts` name, a `*` part standing for each folder there. */
function expand(dir: string, parts: readonly string[]): string[] {
  if (parts.length === 0) return exists(dir) ? [dir] : [];
  const [part, ...rest] = parts as [string, ...string[]];
  if (part !== '*') return expand(path.join(dir, part), rest);
  return foldersIn(dir).flatMap((name) => expand(path.join(dir, name), rest));
}

function foldersIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
