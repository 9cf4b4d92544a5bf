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

/** What a confined command may reach. Paths are absolute and real. */
export interface SandboxProfile {
  /** Whether it shares the machine's network. Without it, it has only a loopback of its own. */
  network: boolean;
  /** Where it may write, besides a private /tmp of its own (the workspace). */
  writable: string[];
  /** Inside a writable folder, kept read-only: the workspace's .git/hooks, .git/config and .gatehouse. */
  readOnly: string[];
  /** Neither read nor written, even inside a writable folder: the data folder and secret stores. */
  hidden: string[];
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
  env: NodeJS.ProcessEnv;
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
  /** Removes what the run needed (its private /tmp); call once the run is over. */
  release(): Promise<void>;
}

export interface Sandbox {
  /** Whether commands can be confined here; asked once and remembered. */
  availability(): Promise<SandboxAvailability>;
  /** The default profile for a command in this workspace (SPEC §9), with or without the network. */
  profile(workspaceRoot: string, options: { network: boolean }): Promise<SandboxProfile>;
  /** The spec that runs `spec` held to `profile`. Throws when the sandbox is not available. */
  confine(spec: CommandSpec, profile: SandboxProfile): Promise<ConfinedSpec>;
}
