/**
 * Folders that are never a workspace (SPEC §9): `/`, the home folder, a folder holding the
 * home folder, the app's data folder or a folder inside it, and any folder holding the data
 * folder. A command in such a workspace writes where it runs: with the workspace at `~`, a
 * confined command moved `~/.config` away (the data folder with it) and planted a config
 * the app then ran (issue 19, item 6). This file is the rule and its words; the session
 * door (sessions/sessions.ts) applies it to every `sessions.open` and to every session
 * reopened from disk, so the Open dialog, a dropped folder and `npm start -- FOLDER` all
 * meet it, and `scripts/start.ts` asks it before anything starts.
 *
 * Folders are compared by real path, so a link to the home folder is the home folder.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { inFolder, realLocation } from './workspace.js';
import type { ErrorKind } from '../error-kind.js';

/** The places a workspace must not be or hold; any path, resolved here. */
export interface RefusalPlaces {
  home: string;
  dataDir: string;
  /**
   * A session's own place (SPEC §15), by its real path: the one folder inside the data
   * folder this call admits. Only the session that owns it passes it.
   */
  admittedPlace?: string;
}

/** A folder the rule refuses as a workspace; the message is the words for the person. */
export class WorkspaceRefusedError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'WorkspaceRefusedError';
}

/** The suggestion every refusal ends with, unless a subfolder of the refused one is better. */
const EXAMPLE = '~/code/myproject';

/**
 * Why `dir` may not be a workspace, in words for the person; null when it may. A folder
 * that does not exist is not judged here: opening it fails with its own words.
 */
export async function workspaceRefusal(dir: string, places: RefusalPlaces): Promise<string | null> {
  const real = await fs.realpath(path.resolve(dir)).catch(() => null);
  if (real === null) return null;
  if (places.admittedPlace !== undefined && real === places.admittedPlace) return null;
  return refusalOfReal(real, await realPlaces(places));
}

/** Throws WorkspaceRefusedError with the refusal's words when `dir` may not be a workspace. */
export async function refuseWorkspace(dir: string, places: RefusalPlaces): Promise<void> {
  const refusal = await workspaceRefusal(dir, places);
  if (refusal !== null) throw new WorkspaceRefusedError(refusal);
}

/** The places by their real paths; a data folder not made yet by where it would be. */
async function realPlaces(places: RefusalPlaces): Promise<RefusalPlaces> {
  const [home, dataDir] = await Promise.all(
    [places.home, places.dataDir].map(async (p) => (await realLocation(path.resolve(p))).real),
  );
  return { home: home!, dataDir: dataDir! };
}

/** The rule on real paths; the first that applies names the reason. */
export function refusalOfReal(real: string, places: RefusalPlaces): string | null {
  const shown = tilde(real, places.home);
  const data = tilde(places.dataDir, places.home);
  const reach = "a command there could reach every project and the app's own data";
  const log = "which holds every session's log and your settings";
  if (path.parse(real).root === real) {
    return `Gatehouse will not open the root folder ${shown} as a workspace: ${reach}. Open a project folder, such as ${EXAMPLE}.`;
  }
  if (sameFolder(real, places.home)) {
    return `Gatehouse will not open your home folder as a workspace: ${reach}. Open a project folder inside it, such as ${EXAMPLE}.`;
  }
  if (inFolder(places.home, real)) {
    return `Gatehouse will not open ${shown} as a workspace: it holds your home folder, so ${reach}. Open a project folder, such as ${EXAMPLE}.`;
  }
  if (sameFolder(real, places.dataDir)) {
    return `Gatehouse will not open ${shown} as a workspace: it is the app's own data folder, ${log}. Open a project folder, such as ${EXAMPLE}.`;
  }
  if (inFolder(real, places.dataDir)) {
    return `Gatehouse will not open ${shown} as a workspace: it is inside the app's own data folder (${data}), ${log}. Open a project folder, such as ${EXAMPLE}.`;
  }
  if (inFolder(places.dataDir, real)) {
    const sub = path.join(shown, 'myproject');
    return `Gatehouse will not open ${shown} as a workspace: it holds the app's own data folder (${data}), which a command there could change. Open a project folder inside it, such as ${sub}.`;
  }
  return null;
}

/** The same folder, compared as the data folder is (case and Unicode form folded). */
function sameFolder(a: string, b: string): boolean {
  return inFolder(a, b) && inFolder(b, a);
}

/** `~/x` for a path under the home folder, as the person would type it. */
function tilde(real: string, home: string): string {
  if (path.parse(home).root === home) return real;
  if (real === home) return '~';
  return real.startsWith(home + path.sep) ? `~${real.slice(home.length)}` : real;
}
