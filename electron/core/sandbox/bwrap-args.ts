/**
 * The bubblewrap command line for one confined command, as a pure function of the spec,
 * the profile and what is on disk (which hidden places are folders), so it can be read
 * and tested without running anything.
 *
 * Order matters: a later mount covers an earlier one. The machine comes first, read-only;
 * then the layers, outer ones first (the home folders emptied, the private /tmp and home,
 * the shown places, the writable folders); then the read-only places inside the writable
 * ones; the hidden places last, so they stay hidden inside anything shown.
 *
 * A hidden folder that holds the workspace or a shown place (/var/tmp holding a workspace)
 * is emptied instead: an empty folder among the layers, so what it holds is mounted
 * through it, made read-only once everything is mounted.
 */
import type { SandboxProfile } from './sandbox.js';
import { isWithin } from './within.js';

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
  /** Folders that hold users' homes on this machine (/home, /root): emptied, whoever's they are. */
  homeRoots: readonly string[];
  /** Whether the home folder exists (a private one is mounted there only then: bwrap cannot make it). */
  homeExists?: boolean;
  /** bubblewrap 0.8 and later can refuse nested user namespaces (--disable-userns). */
  disableUserns: boolean;
  /** The fd bwrap reads a seccomp program from (no Unix sockets), when there is one. */
  seccompFd?: number;
  /** Extra mounts after the layers (the network bridge's sockets in the private /tmp). */
  extraMounts?: readonly string[];
  /** Who runs inside, when not the app's own uid (an agent's jail: never root). */
  identity?: { uid: number; gid: number };
}

interface Layer {
  dest: string;
  args: string[];
}

export function bwrapArgs(inputs: BwrapInputs): string[] {
  const { profile } = inputs;
  const emptied = emptiedPlaces(inputs);
  const hidden = profile.hidden.filter((p) => !emptied.includes(p) && !hiddenAlready(p, inputs));
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
    ...identityArgs(inputs.identity),
    ...(inputs.disableUserns ? ['--disable-userns'] : []),
    // Always a network namespace of its own: only a loopback of its own, none of the
    // host's abstract sockets (X11); with network, the way out is the proxy's bridge.
    '--unshare-net',
    // No --new-session: the app already starts it in a session of its own with no
    // terminal (so TIOCSTI has nothing to reach), and the run's process group must
    // keep holding what runs inside, for its SIGTERM.
    '--ro-bind',
    '/',
    '/',
    ...layers(inputs, emptied).flatMap((l) => l.args),
    ...(inputs.shownInTmp ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...(inputs.extraMounts ?? []),
    ...profile.readOnly.flatMap((p) => ['--ro-bind', p, p]),
    ...hidden.flatMap((p) =>
      inputs.hiddenFolders.has(p) ? ['--tmpfs', p, '--remount-ro', p] : ['--ro-bind', '/dev/null', p],
    ),
    // Only the emptied folder itself: what is mounted inside it keeps its own mode.
    ...emptied.flatMap((p) => ['--remount-ro', p]),
    // Last, so no bind (a workspace at /) brings back the host's: a /dev of its own, and
    // a /proc of its own PID namespace, where the app's /proc/<pid>/environ is not.
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...(inputs.seccompFd === undefined ? [] : ['--seccomp', String(inputs.seccompFd)]),
    '--chdir',
    inputs.cwd,
    '--',
    ...inputs.argv,
  ];
}

/**
 * The layers, by depth of where they land (a stable sort: at equal depth, the order
 * below). An emptied home root comes before the private home in it, the private /tmp
 * before a workspace below /tmp, the private home before the shown places and a
 * workspace inside the home folder.
 */
function layers(inputs: BwrapInputs, emptied: readonly string[]): Layer[] {
  const { profile } = inputs;
  const list: Layer[] = [
    ...inputs.homeRoots.map((p) => ({ dest: p, args: ['--tmpfs', p] })),
    ...emptied.map((p) => ({ dest: p, args: ['--tmpfs', p] })),
    { dest: '/tmp', args: ['--bind', inputs.privateTmp, '/tmp'] },
    // A private, writable home: tools that keep a cache or a history there still work.
    ...(inputs.homeExists === false ? [] : [{ dest: profile.home, args: ['--tmpfs', profile.home] }]),
    ...profile.shown.map((p) => ({ dest: p, args: ['--ro-bind', p, p] })),
    ...profile.writable.map((p) => ({ dest: p, args: ['--bind', p, p] })),
  ];
  const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
  return list.sort((a, b) => depth(a.dest) - depth(b.dest));
}

/** The hidden folders that hold the workspace or a shown place: emptied, not covered. */
function emptiedPlaces(inputs: BwrapInputs): string[] {
  const { profile } = inputs;
  const held = [...profile.writable, ...profile.shown];
  return profile.hidden.filter((p) => inputs.hiddenFolders.has(p) && held.some((q) => q !== p && isWithin(q, p)));
}

/**
 * Whether another hidden folder already hides this place (a credential file inside a
 * hidden secret store): no mount point can be made inside it, and none is needed, unless
 * a shown or writable place inside that folder holds this one.
 */
function hiddenAlready(p: string, inputs: BwrapInputs): boolean {
  const { profile } = inputs;
  const visible = [...profile.writable, ...profile.shown];
  return profile.hidden.some(
    (q) =>
      q !== p &&
      inputs.hiddenFolders.has(q) &&
      isWithin(p, q) &&
      !visible.some((v) => v !== q && isWithin(v, q) && isWithin(p, v)),
  );
}

/** `--uid`/`--gid` for a jail's own identity; an identity that is root is refused (it is the point of one). */
function identityArgs(identity: BwrapInputs['identity']): string[] {
  if (!identity) return [];
  const { uid, gid } = identity;
  for (const id of [uid, gid]) {
    if (!Number.isInteger(id) || id <= 0 || id > 0xfffffffe) throw new Error(`a jail runs as a non-root id, not ${id}`);
  }
  return ['--uid', String(uid), '--gid', String(gid)];
}
