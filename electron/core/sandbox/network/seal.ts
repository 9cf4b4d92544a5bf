/**
 * The bridge's socat must open a Unix socket to reach its door, and the sandbox's seccomp
 * program (syscall-filter.ts) refuses exactly that to everything under it. bwrap's
 * `--seccomp` covers the whole sandbox from its first process, so for a command with
 * network the filter has to come later: after the listeners are up, on the command only.
 * No standard tool loads a seccomp program and execs (sandbox-runtime ships a compiled
 * helper for this), but bubblewrap does, nested: the outer sandbox runs the bridge, then
 * the bridge execs an inner bwrap that adds the filter and refuses user namespaces, and
 * that one execs the command.
 *
 * The inner bwrap shares everything of the outer one but its user namespace: the same
 * mounts (a recursive bind of /, whose read-only mounts stay locked read-only in the new
 * user namespace), PID namespace (so the run's signals still reach the command), network
 * namespace, working folder and environment. For this the outer bwrap must NOT get
 * `--disable-userns` (the inner one needs one user namespace, and sets the refusal for the
 * command) nor `--seccomp` (socat would fail); the program stays on the fd the outer one
 * leaves open, for the inner one to read.
 */

/** The argv that runs `argv` under the seccomp program read from `seccompFd`, with no user namespaces. */
export function sealArgv(argv: readonly string[], bwrapPath: string, seccompFd: number): string[] {
  return [
    bwrapPath,
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--bind',
    '/',
    '/',
    // bwrap's --bind is nodev: without this, the outer sandbox's /dev/null cannot be opened
    // (a program that spawns a child with its output ignored got EACCES).
    '--dev-bind',
    '/dev',
    '/dev',
    '--seccomp',
    String(seccompFd),
    '--',
    ...argv,
  ];
}
