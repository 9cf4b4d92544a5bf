/**
 * What the app's own helpers see of a workspace (SPEC §9, its last bullet): the views a
 * grep and a restore run in, made from a command's profile so that the app never acts
 * there with more reach than a confined command. A confined process can keep swapping a
 * folder for a link between the app's checks and its helper's use of the path (`d` and
 * `dl` → `~/.ssh`, exchanged by renameat2); inside these views such a link leads into an
 * empty home, a hidden place or a read-only one, never to the person's files.
 *
 * Both are plain profiles held by the same `Sandbox.confine` as every command, only
 * narrower: no network, none of the toolchains a command is shown (a helper needs only
 * its own program), and
 * - a read view writes nothing: the places it reads are shown read-only;
 * - a restore view writes the workspace and the restore's scratch folder only, reads the
 *   checkpoint store, and keeps the workspace's git and app places read-only as a command
 *   does, but those the restore itself writes (a turn may have edited `.claude/…`).
 */
import path from 'node:path';
import type { Confine, Sandbox, SandboxProfile } from './sandbox.js';
import { isWithin } from './within.js';

/**
 * The read-only view of `shown` (real paths: the workspace, or a searched folder outside
 * it, and the helper's program folder), made from the command profile of the workspace.
 */
/**
 * Both views keep every place the command's profile hides. One that holds a shown place
 * (the data folder holding the store, /var/tmp holding the workspace, a hidden folder
 * holding a searched one a card allowed) is emptied around it by the bubblewrap arguments
 * rather than covered, so only the shown place shows through: dropping it from the list
 * instead showed the whole data folder to a restore, and the whole of /var/tmp to a grep,
 * where a swapped link then led (the property suite's racer found it). A hidden place
 * that is itself shown (the data folder a card allowed grep to search) is shown.
 */
export function readOnlyProfile(command: SandboxProfile, shown: readonly string[]): SandboxProfile {
  return {
    network: false,
    git: false,
    home: command.home,
    writable: [],
    // Nothing is writable, so nothing need be made read-only (nor made empty to be).
    readOnly: [],
    shown: uniqueReal(shown),
    hidden: keptHidden(command.hidden, shown),
  };
}

export interface RestorePlaces {
  /** The checkpoint store's repository: read. */
  store: string;
  /** A folder of this restore's own (its index, its lists): written. */
  scratch: string;
  /** The programs the restore runs (git), each shown read-only with its folder's parent. */
  programs: readonly string[];
  /** Real paths the restore writes or deletes: a read-only place holding one is left writable. */
  targets: readonly string[];
}

/**
 * The view a restore runs in, or null where no sandbox can run here: the restore then runs
 * as the app, as before, and the command cards already say commands are unconfined there.
 * Throws SandboxRefusal as a command's profile would.
 */
export async function restoreView(
  sandbox: Sandbox,
  workspaceRoot: string,
  places: RestorePlaces,
): Promise<Confine | null> {
  if (!(await sandbox.availability()).available) return null;
  const profile = await sandbox.profile(workspaceRoot, { network: false, git: false, toolchains: false });
  return { sandbox, profile: restoreProfile(profile, places) };
}

export function restoreProfile(command: SandboxProfile, places: RestorePlaces): SandboxProfile {
  const shown = [places.store, ...places.programs.map(programPrefix)];
  return {
    network: false,
    git: false,
    home: command.home,
    writable: [...command.writable, places.scratch],
    readOnly: command.readOnly.filter((p) => !places.targets.some((t) => isWithin(t, p) || isWithin(p, t))),
    shown: uniqueReal(shown),
    hidden: keptHidden(command.hidden, shown),
  };
}

/**
 * A program's install prefix (`/usr` for `/usr/bin/git`): shown so that it still starts
 * where it lives below an emptied home (linuxbrew, a toolchain in `~`), with its libraries.
 * The root is visible anyway.
 */
function programPrefix(program: string): string {
  const folder = path.dirname(program);
  return path.basename(folder) === 'bin' && path.dirname(folder) !== '/' ? path.dirname(folder) : folder;
}

function keptHidden(hidden: readonly string[], shown: readonly string[]): string[] {
  return hidden.filter((h) => !shown.includes(h));
}

function uniqueReal(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((p) => p !== '/'))];
}
