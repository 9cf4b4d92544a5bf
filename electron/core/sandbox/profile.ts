/**
 * The default profile of a confined command (SPEC §9), an allow-list: it writes only in
 * the workspace (and a private /tmp), reads the system (not /mnt, /media, /srv, /var/tmp)
 * and the workspace, and sees the home folder empty except the toolchains and caches of
 * home-allow-list.ts and the places the person added in Settings, with the secret stores
 * (secret-stores.ts) and credential files (credential-files.ts) inside them hidden. It
 * cannot change the places in the workspace that git or the app later run code from
 * (git-places.ts), and has no network unless asked.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { findCredentialFiles } from './credential-files.js';
import { gitPlaces, type HooksPathReader } from './git-places.js';
import type { SandboxProfile } from './sandbox.js';
import { SECRET_STORES } from './secret-stores.js';
import { existingToolchainPlaces } from './shown-places.js';
import { isWithin } from './within.js';

export interface ProfileInputs {
  /** The workspace's real root. */
  workspace: string;
  /** The app's data folder (sessions, keys, settings), real path taken at start. */
  dataDir: string;
  home: string;
  /** Places the person added in Settings, absolute; shown read-only like the toolchains. */
  extraShown: readonly string[];
  network: boolean | string[];
  git: boolean;
  /** false: no toolchain or added place shown (a helper's view; see ProfileRequest). */
  toolchains?: false;
  hooksPath?: HooksPathReader;
}

export async function defaultProfile(inputs: ProfileInputs): Promise<SandboxProfile> {
  const { workspace, home } = inputs;
  const toolchains = inputs.toolchains === false ? [] : existingToolchainPlaces(home);
  const added = inputs.toolchains === false ? [] : inputs.extraShown;
  const shown = unique(existingReal([...toolchains.map((p) => p.path), ...added])).filter(
    (p) => !isWithin(workspace, p) && p !== home && p !== '/',
  );
  // Caches are not searched (home-allow-list.ts), nor a place inside the workspace, whose
  // own .npmrc a command needs; the rest is, within the bound.
  const caches = new Set(existingReal(toolchains.filter((p) => p.cache).map((p) => p.path)));
  const credentialFiles = await findCredentialFiles(shown.filter((p) => !caches.has(p) && !isWithin(p, workspace)));
  // Only a session's place can be inside the data folder (the workspace refusal admits nothing else).
  const place = isWithin(workspace, inputs.dataDir) && workspace !== inputs.dataDir;
  const git = await gitPlaces(workspace, { git: inputs.git, hooksPath: inputs.hooksPath, place });
  const hidden = unique([
    // Hidden even when it holds the workspace (a session's place of its own, SPEC §15, is in
    // it): then it is emptied around the workspace, and nothing else of it is seen.
    ...existingReal([inputs.dataDir]).filter((p) => p !== workspace),
    ...[
      // Inside a shown place or the workspace (one that holds the home folder), they stay hidden.
      ...existingReal(SECRET_STORES.map((store) => path.join(home, store.path))).filter(
        (p) => shown.some((s) => isWithin(p, s) && p !== s) || isWithin(p, workspace),
      ),
      ...credentialFiles,
      ...existingReal(SOCKET_PLACES),
      // A worktree's main folder: only its `.git` is shown, through it.
      ...git.hidden,
      // A place that holds the workspace cannot be hidden without hiding the workspace.
    ].filter((p) => !isWithin(workspace, p)),
  ]);
  return {
    network: inputs.network,
    git: inputs.git,
    home,
    writable: unique([workspace, ...git.gitWritable]),
    readOnly: unique(git.readOnly).filter((p) => p !== workspace),
    // A worktree's git folders last: a personal place holding one (/var/tmp) stays hidden around it.
    shown: unique([...shown, ...git.shown]),
    // These are emptied around a workspace or a shown place inside them (bwrap-args.ts).
    hidden: unique([...hidden, ...personalPlacesToHide(shown)]),
    ...(git.hooks ? { hooks: true as const } : {}),
  };
}

/**
 * Folders of the machine that hold the person's files rather than the system's: mounted
 * disks (under WSL, /mnt/c/Users/<you> is the whole Windows profile), removable media,
 * served sites, and /var/tmp, a temporary folder that outlives a reboot. Hidden unless
 * the person shows one (or a folder holding one) in Settings.
 */
export const PERSONAL_SYSTEM_PLACES: readonly string[] = ['/mnt', '/media', '/srv', '/var/tmp'];

/** Those of `places` to hide: each that exists and is not shown, nor held by a shown place. */
export function personalPlacesToHide(
  shown: readonly string[],
  places: readonly string[] = PERSONAL_SYSTEM_PLACES,
): string[] {
  // One that is a link (/var/tmp -> /tmp on some systems) lands elsewhere, maybe on the private /tmp: left as it is.
  return existingReal(places).filter((p) => places.includes(p) && !shown.some((s) => isWithin(p, s)));
}

/**
 * Where the host's Unix sockets live outside the home folder and /tmp (both private
 * inside): /run holds the user's runtime folder (ssh-agent, the keyring, D-Bus), Docker's
 * socket and the system bus. A read-only mount does not stop connect(), so it is hidden.
 */
const SOCKET_PLACES: readonly string[] = ['/run', '/var/run'];

/** The real paths of those that exist (a link is hidden or shown where it lands). */
function existingReal(paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const p of paths) {
    try {
      const real = realpathSync.native(p);
      statSync(real);
      found.push(real);
    } catch {
      // Missing (or unreadable): nothing there to show or hide.
    }
  }
  return found;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
