/**
 * The bubblewrap command line for one confined command, as a pure function of the spec,
 * the profile and what is on disk (which hidden places are folders), so it can be read
 * and tested without running anything. Order matters: a later mount covers an earlier
 * one, so the hidden places come last and stay hidden inside the workspace too.
 */
import type { SandboxProfile } from './sandbox.js';

export interface BwrapInputs {
  argv: readonly string[];
  /** Real working folder, inside a writable folder. */
  cwd: string;
  profile: SandboxProfile;
  /** A fresh folder of the run's own, mounted as /tmp. */
  privateTmp: string;
  /** Host folders under /tmp the command needs to start (host-tmp-paths.ts), shown read-only through the private /tmp. */
  shownInTmp?: readonly string[];
  /** Hidden places that are folders (covered by an empty read-only tmpfs); the rest are files. */
  hiddenFolders: ReadonlySet<string>;
  /** bubblewrap 0.8 and later can refuse nested user namespaces (--disable-userns). */
  disableUserns: boolean;
}

export function bwrapArgs(inputs: BwrapInputs): string[] {
  const { profile } = inputs;
  return [
    // The sandbox dies with the app, and with its first process: bwrap is PID 1 of a
    // namespace of its own, so a setsid or double-forked grandchild goes with it.
    '--die-with-parent',
    // Tells the app, on fd 3, the host pid of the sandbox's PID 1.
    '--info-fd',
    '3',
    '--unshare-pid',
    '--unshare-ipc',
    // Its own user namespace; nested ones are refused, so no mount can be undone from inside.
    '--unshare-user',
    ...(inputs.disableUserns ? ['--disable-userns'] : []),
    // network: true shares the machine's network (the card says so); otherwise only a loopback of its own.
    ...(profile.network ? [] : ['--unshare-net']),
    // No --new-session: the app already starts it in a session of its own with no
    // terminal (so TIOCSTI has nothing to reach), and the run's process group must
    // keep holding what runs inside, for its SIGTERM.
    '--ro-bind',
    '/',
    '/',
    // The private /tmp and the writable folders, outer ones first: a workspace below /tmp
    // shows through the private /tmp, and a workspace at / does not uncover the host's /tmp.
    ...writableMounts(inputs.privateTmp, profile.writable),
    ...(inputs.shownInTmp ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...profile.readOnly.flatMap((p) => ['--ro-bind', p, p]),
    ...profile.hidden.flatMap((p) =>
      inputs.hiddenFolders.has(p) ? ['--tmpfs', p, '--remount-ro', p] : ['--ro-bind', '/dev/null', p],
    ),
    // Last, so no bind (a workspace at /) brings back the host's: a /dev of its own, and
    // a /proc of its own PID namespace, where the app's /proc/<pid>/environ is not.
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--chdir',
    inputs.cwd,
    '--',
    ...inputs.argv,
  ];
}

function writableMounts(privateTmp: string, writable: readonly string[]): string[] {
  const mounts = [{ source: privateTmp, dest: '/tmp' }, ...writable.map((p) => ({ source: p, dest: p }))];
  const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
  // A stable sort: at equal depth the private /tmp stays first.
  return mounts.sort((a, b) => depth(a.dest) - depth(b.dest)).flatMap((m) => ['--bind', m.source, m.dest]);
}
