/**
 * The default profile of a confined command (SPEC §9): it writes only in the workspace
 * (and a private /tmp), reads the machine except the app's data folder and the secret
 * stores below, has no network unless asked, and cannot change the places in the
 * workspace that make the app or git run code later.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SandboxProfile } from './sandbox.js';

/**
 * Secret stores below the home folder: SSH, cloud and cluster credentials, token files,
 * browser profiles and keyrings. Hidden when they exist, even inside the workspace.
 */
export const SECRET_STORES: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/hub',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.docker/config.json',
  '.kube',
  '.config/gcloud',
  '.azure',
  '.oci',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.mozilla',
  '.thunderbird',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.local/share/keyrings',
  '.password-store',
  '.pki',
];

/** Places in the workspace that the app or git later runs code from; read-only inside the sandbox. */
export const PROTECTED_IN_WORKSPACE: readonly string[] = ['.git/hooks', '.git/config', '.gatehouse'];

export interface ProfileInputs {
  /** The workspace's real root. */
  workspace: string;
  /** The app's data folder (sessions, keys, settings). */
  dataDir: string;
  home: string;
  /**
   * The app's environment, for the user's runtime folder (XDG_RUNTIME_DIR: the session's
   * sockets, such as ssh-agent, the keyring and D-Bus) and SSH_AUTH_SOCK.
   */
  env: Readonly<Record<string, string | undefined>>;
  network: boolean;
}

export async function defaultProfile(inputs: ProfileInputs): Promise<SandboxProfile> {
  const workspace = inputs.workspace;
  const candidates = [
    inputs.dataDir,
    ...SECRET_STORES.map((rel) => path.join(inputs.home, rel)),
    ...socketPlaces(inputs.env),
  ];
  const hidden = unique(await existingReal(candidates)).filter(
    // A place that holds the workspace cannot be hidden without hiding the workspace.
    (p) => !isWithin(workspace, p),
  );
  const readOnly = [
    ...(await existingReal(PROTECTED_IN_WORKSPACE.map((rel) => path.join(workspace, rel)))),
    // In a repository without hooks yet, the hooks folder is made (empty, as git init makes it) when
    // the command runs, so a command cannot be the one to fill it.
    ...(isFolder(path.join(workspace, '.git')) ? [path.join(workspace, '.git', 'hooks')] : []),
  ].filter((p) => isWithin(p, workspace) && p !== workspace);
  return { network: inputs.network, writable: [workspace], readOnly: unique(readOnly), hidden };
}

/**
 * Sockets that hand out what a file would not: the user's runtime folder (ssh-agent, the
 * keyring, D-Bus), the agent socket wherever it is, and Docker's (root on the machine). A
 * read-only mount does not stop connect(), so they are hidden.
 */
function socketPlaces(env: Readonly<Record<string, string | undefined>>): string[] {
  const places = ['/run/docker.sock', '/var/run/docker.sock'];
  const uid = process.getuid?.();
  if (uid !== undefined) places.push(`/run/user/${uid}`);
  if (env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR)) places.push(env.XDG_RUNTIME_DIR);
  if (env.SSH_AUTH_SOCK && path.isAbsolute(env.SSH_AUTH_SOCK)) places.push(env.SSH_AUTH_SOCK);
  return places;
}

/**
 * The real paths of those that exist (a link is hidden where it lands). Synchronous on
 * purpose: some thirty lookups, nearly all of missing paths, cost less blocking the loop
 * than queueing them on libuv's four threads behind whatever else is reading.
 */
async function existingReal(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const p of paths) {
    try {
      found.push(realpathSync.native(p));
    } catch {
      // Missing (or unreadable): nothing there to hide or protect.
    }
  }
  return found;
}

/** Whether `p` is `root` or below it. */
export function isWithin(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/** A real folder, not a link to one (a linked .git lands outside and is read-only already). */
function isFolder(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
