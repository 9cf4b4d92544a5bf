/**
 * The default profile of a confined command (SPEC §9), an allow-list: it writes only in
 * the workspace (and a private /tmp), reads the system and the workspace, and sees the
 * home folder empty except the toolchains and caches of home-allow-list.ts and the places
 * the person added in Settings. It cannot change the places in the workspace that git or
 * the app later run code from (git-places.ts), and has no network unless asked.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { gitPlaces, type HooksPathReader } from './git-places.js';
import { SHOWN_HOME_PLACES } from './home-allow-list.js';
import type { SandboxProfile } from './sandbox.js';
import { isWithin } from './within.js';

/**
 * Secret stores below the home folder. The home folder is empty inside the sandbox, so
 * these matter only when a shown place holds one (the person showed `~/.config` in
 * Settings): then they stay hidden inside it.
 */
export const SECRET_STORES: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/hub',
  '.config/gcloud',
  '.config/git/credentials',
  '.config/rclone',
  '.config/github-copilot',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/Code/User/globalStorage',
  '.local/share/keyrings',
  '.cargo/credentials.toml',
  '.cargo/credentials',
  '.docker',
  '.kube',
  '.azure',
  '.oci',
  '.mozilla',
  '.thunderbird',
  'snap/firefox',
  '.password-store',
  '.pki',
  '.claude',
  '.codex',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
];

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
  hooksPath?: HooksPathReader;
}

export async function defaultProfile(inputs: ProfileInputs): Promise<SandboxProfile> {
  const { workspace, home } = inputs;
  const shown = unique(
    existingReal([...SHOWN_HOME_PLACES.map((p) => path.join(home, p.path)), ...inputs.extraShown]),
  ).filter((p) => !isWithin(workspace, p) && p !== home && p !== '/');
  const git = await gitPlaces(workspace, { git: inputs.git, hooksPath: inputs.hooksPath });
  const hidden = unique([
    ...existingReal([inputs.dataDir]),
    // Inside a shown place or the workspace (one that holds the home folder), they stay hidden.
    ...existingReal(SECRET_STORES.map((rel) => path.join(home, rel))).filter(
      (p) => shown.some((s) => isWithin(p, s) && p !== s) || isWithin(p, workspace),
    ),
    ...existingReal(SOCKET_PLACES),
    // A place that holds the workspace cannot be hidden without hiding the workspace.
  ]).filter((p) => !isWithin(workspace, p));
  return {
    network: inputs.network,
    git: inputs.git,
    home,
    writable: unique([workspace, ...git.gitWritable]),
    readOnly: unique(git.readOnly).filter((p) => p !== workspace),
    shown,
    hidden,
    ...(git.hooks ? { hooks: true as const } : {}),
  };
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
