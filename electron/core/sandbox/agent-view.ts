/**
 * The jail an external agent's process runs in (SPEC §14): a profile of this room, held by
 * the same `Sandbox.confine` as every command, made from a command's profile of the
 * workspace asked without toolchains, so everything a command never sees (the data
 * folder, secret stores, /run's sockets, /mnt, /media, /srv, /var/tmp) stays hidden here too.
 * Asked is not enforced (agents write and run by themselves whatever the client says), so:
 * - the workspace is shown READ-ONLY: the gate's MCP tools are the agent's only way to
 *   change it (a write of its own fails with EROFS);
 * - its own HOME (`<dataDir>/agents/<id>/home`: its config and login) is the one writable
 *   place besides a private /tmp; the person's home is empty, the data folder is emptied
 *   around the agent's two folders (bwrap-args.ts), its install shown read-only;
 * - a staged agent (SPEC §15: Codex, opencode, which write and run by themselves) gets its
 *   session's place WRITABLE instead, and the person's folder it was made from is hidden
 *   whole, but for a worktree's `<origin>/.git`, shown read-only so git works in the place;
 * - it runs as a non-root uid (Claude Code refuses root);
 * - its network is its domain list through the app's proxy, plus the forwards: the gate's
 *   MCP socket at 127.0.0.1:GATE_PORT and, when the person named one, a model endpoint on
 *   this machine at 127.0.0.1:MODEL_PORT (the proxy rightly refuses this machine's own
 *   addresses, so a local model is a forward named on the start card, never a hole in it).
 */
import path from 'node:path';
import type { Confine, Sandbox, SandboxProfile, Forward } from './sandbox.js';

/** Where the gate's MCP face answers inside every agent's jail. */
export const GATE_PORT = 3129;
/** Where a model endpoint on this machine answers inside, when the start card names one. */
export const MODEL_PORT = 3130;
/** The uid and gid inside when the app runs as root. */
export const JAIL_ID_FOR_ROOT = 1000;

export interface AgentPlaces {
  /** The workspace's real root: shown read-only (writable when it is a staged agent's place). */
  workspace: string;
  /** A staged agent's place: the workspace is writable, `origin` hidden, `gitDir` (a worktree's) shown read-only. */
  staged?: { origin: string; gitDir: string | null };
  /** The agent's own HOME, real: the one writable place. */
  home: string;
  /** The agent's install prefix, real: shown read-only. */
  install: string;
  /** The node binary that runs it, real: its prefix shown read-only (it may live in the emptied home). */
  node: string;
  /** Host Unix socket of the gate's MCP face. */
  gateSocket: string;
  /** Host Unix socket leading to a model endpoint on this machine, if any. */
  modelSocket?: string;
}

/** The jail's profile, from a command's profile of the same workspace asked without toolchains. */
export function agentProfile(
  command: SandboxProfile,
  places: AgentPlaces,
  domains: readonly string[],
  appUid: number = process.getuid?.() ?? 0,
  appGid: number = process.getgid?.() ?? 0,
): SandboxProfile {
  const staged = places.staged;
  const shown = unique([
    ...(staged ? (staged.gitDir ? [staged.gitDir] : []) : [places.workspace]),
    places.install,
    nodePrefix(places.node),
  ]);
  const writable = staged ? [places.home, places.workspace] : [places.home];
  return {
    // An empty list is no network at all: the forwards still come through the bridge.
    network: domains.length === 0 ? false : [...domains],
    git: false,
    home: command.home,
    writable,
    readOnly: [],
    shown,
    // A hidden place holding a shown or writable one (the data folder holding the agent's
    // folders and a place, /var/tmp holding the workspace, a worktree's origin holding its
    // .git) is emptied around it, never dropped (helper-view.ts).
    hidden: [
      ...command.hidden.filter((h) => !shown.includes(h) && !writable.includes(h)),
      ...(staged ? [staged.origin] : []),
    ],
    jail: {
      uid: appUid === 0 ? JAIL_ID_FOR_ROOT : appUid,
      gid: appUid === 0 ? JAIL_ID_FOR_ROOT : appGid,
      home: places.home,
      forwards: forwards(places),
    },
  };
}

/** The jail as the process room takes it. Throws SandboxRefusal (or why none can run): an agent never runs unjailed. */
export async function agentView(sandbox: Sandbox, places: AgentPlaces, domains: readonly string[]): Promise<Confine> {
  const availability = await sandbox.availability();
  if (!availability.available) {
    throw new Error(`an external agent runs only jailed, and no sandbox can run here: ${availability.reason}`);
  }
  // Asked with network so that a missing socat is refused here, in words, before anything starts.
  const command = await sandbox.profile(places.workspace, {
    network: domains.length > 0 ? [...domains] : false,
    git: false,
    toolchains: false,
  });
  return { sandbox, profile: agentProfile(command, places, domains) };
}

/** The URL of the gate's MCP face as the agent reaches it. */
export function gateUrlInside(): string {
  return `http://127.0.0.1:${GATE_PORT}/mcp`;
}

/** The base URL of a model endpoint on this machine as the agent reaches it. */
export function modelUrlInside(): string {
  return `http://127.0.0.1:${MODEL_PORT}`;
}

function forwards(places: AgentPlaces): Forward[] {
  return [
    { name: 'gate', port: GATE_PORT, socket: places.gateSocket },
    ...(places.modelSocket ? [{ name: 'model', port: MODEL_PORT, socket: places.modelSocket }] : []),
  ];
}

/**
 * Node's install prefix (`/usr` for `/usr/bin/node`, `~/.nvm/versions/node/v24` for nvm's):
 * shown so that it starts below an emptied home, with what it ships beside it.
 */
export function nodePrefix(node: string): string {
  const folder = path.dirname(node);
  return path.basename(folder) === 'bin' && path.dirname(folder) !== '/' ? path.dirname(folder) : folder;
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((p) => p !== '/'))];
}
