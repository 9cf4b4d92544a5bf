/**
 * The places a person adds in Settings for confined commands to see, read-only (SPEC §9),
 * checked once when they are saved: an existing folder or file, given as an absolute
 * path or under ~, that is not the whole home folder or the root (that would undo the
 * allow-list). Secret stores and the app's data folder inside one stay hidden (profile.ts).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SHOWN_HOME_PLACES } from './home-allow-list.js';
import { isWithin } from './within.js';

/** At most this many places: each is a mount on every command. */
export const MAX_SHOWN_PLACES = 64;

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
  if (real === '/' || isWithin(home, real)) {
    return { error: `${typed} holds your whole home folder; add the folder a tool needs, such as ~/.sdkman` };
  }
  return { path: real };
}

/** The toolchain places that exist on this machine: what every command sees of the home folder. */
export function toolchainPlaces(home: string): string[] {
  const found: string[] = [];
  for (const place of SHOWN_HOME_PLACES) {
    try {
      statSync(path.join(home, place.path));
      found.push(path.join(home, place.path));
    } catch {
      // Not installed here.
    }
  }
  return found;
}
