/**
 * The OS sandbox for commands (SPEC §9), behind one interface the tools and the gate
 * use: whether a sandbox can run here (and, if not, why in plain words and what to
 * install), what a command may reach (a profile: plain data, the same the card shows),
 * and how to turn a planned process spec into a confined one.
 *
 * On Linux it is bubblewrap, wrapped directly (bwrap-sandbox.ts), not through
 * @anthropic-ai/sandbox-runtime: that library takes a command *string* that it runs
 * through `bash -c` (an argv would have to be shell-quoted, and the program the card
 * names would no longer be the process that runs), keeps one process-wide
 * configuration with proxy servers and socat bridges, filters the network by domain
 * through its proxy (loopback denied), and creates mount points on the host for deny
 * paths that do not exist. bwrap alone gives us an exact argv, a profile per command, a
 * PID namespace, and a sandbox that dies whole with its first process.
 */
import type { ErrorKind } from '../error-kind.js';
import type { Refusal } from './network/refusal.js';

/** What a confined command may reach: an allow-list. Paths are absolute and real. */
export interface SandboxProfile {
  /**
   * Whether it may reach the network, only through the app's proxy: any domain (true) or
   * only the domains listed. Without it, it has only a loopback of its own.
   */
  network: boolean | string[];
  /** `git: true`: the repository's .git is writable (its hooks and config stay read-only). */
  git: boolean;
  /** The home folder: empty inside, but for `shown`; $HOME is a private writable folder there. */
  home: string;
  /** Where it may write, besides a private /tmp and the private home (the workspace; .git with git: true). */
  writable: string[];
  /** Inside a writable folder, kept read-only as mount points: .git, .gatehouse, .claude, the hooks folder. */
  readOnly: string[];
  /** Places of the home folder shown read-only: toolchains, package caches, what the person added. */
  shown: string[];
  /** Neither read nor written, even inside a shown folder: the data folder, secret stores, /run's sockets. */
  hidden: string[];
  /** An external agent's jail (agent-view.ts): set only there, never for a command. */
  jail?: JailParts;
}

/**
 * What an agent's jail adds to a profile (SPEC §14): who it runs as, a HOME of its own
 * that lasts (its config and login), and host sockets it reaches as loopback ports.
 */
export interface JailParts {
  /** The uid and gid inside: never 0 (Claude Code refuses to run as root). */
  uid: number;
  gid: number;
  /** $HOME inside: one of the writable places, kept between runs (not the empty private home). */
  home: string;
  /** Host Unix sockets, each reached inside at 127.0.0.1:<port> through the bridge (network/bridge.ts). */
  forwards: Forward[];
}

/** A host Unix socket shown inside as `<BRIDGE_DIR>/<name>.sock` and listened for on 127.0.0.1:<port>. */
export interface Forward {
  /** Short, lower-case letters: names the socket inside. */
  name: string;
  port: number;
  /** Host path of the Unix socket (it must exist when the jail starts). */
  socket: string;
}

/** What a command asks of the sandbox beyond the default. */
export interface ProfileRequest {
  network: boolean | string[];
  git: boolean;
  /**
   * false: the view of one of the app's own helpers (a grep, a restore), which needs only its
   * own program: no toolchain or added place is shown, so none is searched for credential
   * files either (that search was most of a grep's cost). Everything hidden stays hidden.
   */
  toolchains?: false;
}

export type SandboxAvailability =
  | { available: true; kind: 'bubblewrap' }
  | {
      available: false;
      /** Why, in plain words: "bubblewrap (bwrap) is not installed". */
      reason: string;
      /** What a person can do about it, or say that nothing can be done yet. */
      fix: string;
    };

/** A process as planned: the program and its arguments, where it runs, with what environment. */
export interface CommandSpec {
  argv: readonly string[];
  cwd: string;
  /** The app's environment without its keys; inside the sandbox only its allow-listed names are kept. */
  env: NodeJS.ProcessEnv;
  /**
   * Variables a card named (a workspace MCP server's `env`), passed as they are on top of
   * the allow-listed ones. They never change what the sandbox shows (a PATH here does
   * not make a host folder visible).
   */
  declaredEnv?: Readonly<Record<string, string>>;
}

/** A command spec turned into one that runs inside the sandbox. */
export interface ConfinedSpec extends CommandSpec {
  /**
   * Sends a signal to what runs inside the sandbox, never to the wrapper itself: the
   * wrapper's death takes everything inside down at once, so a graceful SIGTERM must
   * go to the command. SIGKILL goes to the wrapper's process group as usual. Resolves
   * to how many processes were signalled.
   */
  signalInside(wrapperPid: number, signal: NodeJS.Signals): Promise<number>;
  /** The wrapper writes its PID 1's host pid as JSON ("child-pid") on fd 3. */
  initPidOnFd3: true;
  /** Bytes the wrapper reads on fd 4 before it starts the command (the seccomp program); a pipe the spawner fills. */
  inputOnFd4?: Buffer;
  /** With network: the one line for the model about what the proxy refused, or null (none refused). */
  networkRefusal?(): string | null;
  /** With network: each refusal so far, in order (an external agent's driver says them as they come). */
  networkRefusals?(): readonly Refusal[];
  /** Removes what the run needed (an empty .git standing in, its private /tmp); call once the run is over. */
  release(): Promise<void>;
}

export interface Sandbox {
  /** Whether commands can be confined here; asked once and remembered. */
  availability(): Promise<SandboxAvailability>;
  /**
   * The default profile for a command in this workspace (SPEC §9), with what it asked for.
   * Throws SandboxRefusal when commands must not run (a hidden place moved since start).
   */
  profile(workspaceRoot: string, request: ProfileRequest): Promise<SandboxProfile>;
  /** The spec that runs `spec` held to `profile`. Throws when the sandbox is not available. */
  confine(spec: CommandSpec, profile: SandboxProfile): Promise<ConfinedSpec>;
  /** Stops what the sandbox keeps running between commands (the network proxy). */
  dispose(): Promise<void>;
}

/** A process to be held to this profile by this sandbox: what the process room is handed to confine a start. */
export interface Confine {
  sandbox: Sandbox;
  profile: SandboxProfile;
}

/** Commands cannot run confined as promised right now; the words say why, for the card and the model. */
export class SandboxRefusal extends Error {
  readonly errorKind: ErrorKind = 'refused';
}
