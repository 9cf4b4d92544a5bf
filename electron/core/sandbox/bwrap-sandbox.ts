/**
 * The sandbox on Linux: bubblewrap, run directly with an exact argv (see sandbox.ts for
 * why not @anthropic-ai/sandbox-runtime). Elsewhere, and where bubblewrap cannot start,
 * it says why and what to install, and confines nothing.
 */
import { execFile } from 'node:child_process';
import { promises as fs, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs } from './bwrap-args.js';
import { allowedEnv } from './env-allow-list.js';
import type { HooksPathReader } from './git-places.js';
import { Placeholders } from './placeholders.js';
import { hostTmpPaths, programFoldersInHidden } from './host-tmp-paths.js';
import { signalNamespaceOf } from './namespace-signal.js';
import { defaultProfile, PERSONAL_SYSTEM_PLACES } from './profile.js';
import {
  SandboxRefusal,
  type CommandSpec,
  type ConfinedSpec,
  type Forward,
  type ProfileRequest,
  type Sandbox,
  type SandboxAvailability,
  type SandboxProfile,
} from './sandbox.js';
import { bridgeArgv, bridgeEnv, bridgeMounts, listenersFor } from './network/bridge.js';
import { NetworkProxy, type NetworkProxyOptions, type ProxyDoor } from './network/network-proxy.js';
import { refusalSummary } from './network/refusal.js';
import { sealArgv } from './network/seal.js';
import { findSocat, INSTALL_SOCAT } from './network/socat.js';
import { findOnPath } from './program-path.js';
import { syscallFilter } from './syscall-filter.js';
import { isWithin } from './within.js';

export interface BwrapSandboxOptions {
  /** The app's data folder: hidden from every command. */
  dataDir: string;
  home: string;
  /** The app's environment: PATH to find bwrap on, XDG_RUNTIME_DIR and SSH_AUTH_SOCK to hide. */
  env: Readonly<Record<string, string | undefined>>;
  /** process.platform unless a test stands in another. */
  platform?: NodeJS.Platform;
  /** Where bwrap is, instead of a PATH lookup; null: it is not installed (tests). */
  bwrapPath?: string | null;
  /** Places the person added in Settings to show read-only, absolute; read afresh for every command. */
  extraShown?: () => readonly string[];
  /** How core.hooksPath is read (tests stand in their own). */
  hooksPath?: HooksPathReader;
  /** The network proxy's options (tests land allowed domains on loopback stand-ins). */
  network?: NetworkProxyOptions;
}

/** Where users' homes are on this machine: emptied inside, whoever's they are. */
const HOME_ROOTS: readonly string[] = ['/home', '/root'];

/** How long the start-up check may take before bubblewrap counts as unusable. */
const PROBE_TIMEOUT_MS = 5000;

const INSTALL_BWRAP =
  'Install bubblewrap (Debian and Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), then restart Gatehouse.';

interface Usable {
  bwrap: string;
  disableUserns: boolean;
  /** socat, for the network bridge; null: commands with network are refused (INSTALL_SOCAT). */
  socat: string | null;
}

export class BwrapSandbox implements Sandbox {
  private checked: Promise<{ availability: SandboxAvailability; usable: Usable | null }> | null = null;
  /** The one network proxy of the app, made when the first command with network runs. */
  private proxy: NetworkProxy | null = null;
  /** What stands in, as mount points, for read-only places that do not exist yet (an empty `.git`, a commondir). */
  private readonly placeholders = new Placeholders();
  /** The data folder as it was at start: hidden by that identity, so moving it cannot uncover it. */
  private readonly dataDirAtStart: PlaceIdentity | null;

  constructor(private readonly options: BwrapSandboxOptions) {
    this.dataDirAtStart = identityOf(options.dataDir);
  }

  async availability(): Promise<SandboxAvailability> {
    return (await this.check()).availability;
  }

  async dispose(): Promise<void> {
    await this.proxy?.dispose();
  }

  async profile(workspaceRoot: string, request: ProfileRequest): Promise<SandboxProfile> {
    const { home } = this.options;
    const dataDir = this.checkDataDirInPlace();
    if (request.network !== false && (await this.check()).usable?.socat === null) {
      throw new SandboxRefusal(`refused: ${INSTALL_SOCAT} Nothing ran. Tell the user, or work without the network.`);
    }
    return defaultProfile({
      workspace: workspaceRoot,
      dataDir,
      home,
      extraShown: this.options.extraShown?.() ?? [],
      network: request.network,
      git: request.git,
      ...(request.toolchains === false ? { toolchains: false as const } : {}),
      hooksPath: this.options.hooksPath,
    });
  }

  /**
   * The data folder is hidden by the real path it had at start. If it is no longer there
   * (a command at a workspace holding it renamed a parent), hiding the old path would
   * hide nothing, so no command runs until the app restarts and finds it again.
   */
  private checkDataDirInPlace(): string {
    const start = this.dataDirAtStart;
    if (!start) return this.options.dataDir;
    const now = identityOf(start.real);
    if (!now || now.dev !== start.dev || now.ino !== start.ino) {
      throw new SandboxRefusal(
        `refused: the app's data folder is no longer at ${start.real}, where it was when Gatehouse started, so the sandbox cannot hide it. Nothing ran. Restart Gatehouse.`,
      );
    }
    return start.real;
  }

  async confine(spec: CommandSpec, profile: SandboxProfile): Promise<ConfinedSpec> {
    const { usable, availability } = await this.check();
    if (!usable) throw new Error(`commands cannot be confined here: ${(availability as { reason: string }).reason}`);
    this.checkDataDirInPlace();
    const seccomp = syscallFilter();
    // First what can fail (the proxy's door, the private /tmp), then what must be undone (held placeholders).
    const forwards = profile.jail?.forwards ?? [];
    const bridged = profile.network !== false || forwards.length > 0;
    const bridge = bridged ? await this.bridge(profile.network, forwards, spec.argv, usable, seccomp) : null;
    const privateTmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-sandbox-')).catch(async (err: unknown) => {
      await bridge?.door?.close();
      throw err;
    });
    // A read-only place that does not exist yet (.git standing in, .gatehouse, a hooks folder,
    // a git folder's commondir with git: true) stands in for the run (placeholders.ts).
    const { readOnly, held } = this.placeholders.standIn(profile.readOnly);
    const { hidden, hiddenFolders } = await stillThere(profile.hidden);
    const args = bwrapArgs({
      argv: bridge?.argv ?? spec.argv,
      cwd: spec.cwd,
      profile: { ...profile, readOnly, hidden, shown: [...profile.shown, ...programFolders(spec, hidden)] },
      privateTmp,
      // From the app's PATH only: a PATH a config declared never makes a host folder visible.
      shownInTmp: hostTmpPaths(spec.argv[0] ?? '', spec.env.PATH, hidden).filter(
        (p) => !profile.writable.some((w) => isWithin(p, w)),
      ),
      hiddenFolders,
      homeRoots: existing(HOME_ROOTS).filter((p) => p !== profile.home && !isWithin(p, profile.home)),
      homeExists: identityOf(profile.home) !== null,
      // With the bridge, the inner bwrap (seal.ts) refuses user namespaces and loads the seccomp
      // program for the command alone: socat, before it, must still open its Unix sockets.
      disableUserns: usable.disableUserns && !(bridge && seccomp),
      ...(seccomp && !bridge ? { seccompFd: 4 } : {}),
      ...(bridge ? { extraMounts: bridge.mounts } : {}),
      ...(profile.jail ? { identity: { uid: profile.jail.uid, gid: profile.jail.gid } } : {}),
    });
    const door = bridge?.door ?? null;
    return {
      argv: [usable.bwrap, ...args],
      cwd: spec.cwd,
      env: { ...confinedEnv(spec, profile), ...(door ? bridgeEnv() : {}) },
      signalInside: signalNamespaceOf,
      initPidOnFd3: true,
      ...(seccomp ? { inputOnFd4: seccomp } : {}),
      ...(door
        ? { networkRefusal: () => refusalSummary(door.refusals(), door.allow), networkRefusals: () => door.refusals() }
        : {}),
      release: async () => {
        await door?.close();
        this.placeholders.release(held);
        // Nothing runs in the private /tmp any more; no one need wait for its removal.
        void fs.rm(privateTmp, { recursive: true, force: true }).catch(() => {});
      },
    };
  }

  /**
   * The way out for a command with network: a door of the app's proxy enforcing its
   * policy, its sockets shown inside, and the argv that starts the bridge before the
   * command (sealed under the seccomp program, where there is one).
   */
  private async bridge(
    policy: boolean | string[],
    forwards: readonly Forward[],
    argv: readonly string[],
    usable: Usable,
    seccomp: Buffer | null,
  ): Promise<{ door: ProxyDoor | null; mounts: string[]; argv: string[] }> {
    if (!usable.socat) throw new Error(INSTALL_SOCAT);
    // Checked before a door is opened: a bad forward leaves nothing open.
    const listeners = listenersFor(policy !== false, forwards);
    await Promise.all(forwards.map((f) => mustBeSocket(f)));
    let door: ProxyDoor | null = null;
    if (policy !== false) {
      this.proxy ??= new NetworkProxy(this.options.network);
      door = await this.proxy.open(policy);
    }
    const command = seccomp ? sealArgv(argv, usable.bwrap, 4) : [...argv];
    return { door, mounts: bridgeMounts(door, forwards), argv: bridgeArgv(command, usable.socat, listeners) };
  }

  private check() {
    this.checked ??= this.probe();
    return this.checked;
  }

  private async probe(): Promise<{ availability: SandboxAvailability; usable: Usable | null }> {
    const platform = this.options.platform ?? process.platform;
    const unusable = (reason: string, fix: string) => ({
      availability: { available: false as const, reason, fix },
      usable: null,
    });
    if (platform === 'win32') {
      return unusable(
        'Windows has no sandbox for commands yet',
        'Nothing to install on Windows yet; run Gatehouse in WSL 2 with bubblewrap to have commands confined.',
      );
    }
    if (platform === 'darwin') {
      return unusable(
        'the macOS sandbox (Seatbelt) is not supported yet',
        'Nothing to install on macOS yet; commands run unconfined.',
      );
    }
    if (platform !== 'linux') return unusable(`no sandbox for commands on ${platform}`, INSTALL_BWRAP);
    const bwrap =
      this.options.bwrapPath === undefined ? await findOnPath('bwrap', this.options.env.PATH) : this.options.bwrapPath;
    if (!bwrap) return unusable('bubblewrap (bwrap) is not installed', INSTALL_BWRAP);
    const socat = await findSocat(this.options.env.PATH);
    const withDisable = await tryBwrap(bwrap, true, this.options.env.PATH);
    if (withDisable.ok)
      return { availability: { available: true, kind: 'bubblewrap' }, usable: { bwrap, disableUserns: true, socat } };
    const plain = await tryBwrap(bwrap, false, this.options.env.PATH);
    if (plain.ok)
      return { availability: { available: true, kind: 'bubblewrap' }, usable: { bwrap, disableUserns: false, socat } };
    if (/namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(plain.message)) {
      return unusable(
        `user namespaces are off, so bubblewrap cannot start (${plain.message})`,
        'Allow unprivileged user namespaces: on Debian, sudo sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 23.10 and later, give bwrap an AppArmor profile that allows userns (or sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0). Then restart Gatehouse.',
      );
    }
    return unusable(`bubblewrap cannot start here (${plain.message})`, INSTALL_BWRAP);
  }
}

/**
 * The allow-listed part of the app's environment, then what a card declared, then where
 * home and the temporary folder are inside: the private ones, whatever the app's say.
 */
function confinedEnv(spec: CommandSpec, profile: SandboxProfile): NodeJS.ProcessEnv {
  return { ...allowedEnv(spec.env), ...spec.declaredEnv, HOME: profile.jail?.home ?? profile.home, TMPDIR: '/tmp' };
}

/** A forward's host socket must be there when the jail starts: bwrap would fail with a line that names no one. */
async function mustBeSocket(forward: Forward): Promise<void> {
  const stat = await fs.stat(forward.socket).catch(() => null);
  if (!stat?.isSocket()) throw new Error(`the ${forward.name} socket is not there: ${forward.socket}`);
}

interface PlaceIdentity {
  real: string;
  dev: number;
  ino: number;
}

function identityOf(p: string): PlaceIdentity | null {
  try {
    const real = realpathSync.native(p);
    const stat = statSync(real);
    return { real, dev: stat.dev, ino: stat.ino };
  } catch {
    return null;
  }
}

/** The hidden places still there (one gone since the profile was made has nothing left to hide), and which are folders. */
async function stillThere(places: readonly string[]): Promise<{ hidden: string[]; hiddenFolders: Set<string> }> {
  const hidden: string[] = [];
  const hiddenFolders = new Set<string>();
  for (const p of places) {
    const stat = await fs.stat(p).catch(() => null);
    if (!stat) continue;
    hidden.push(p);
    if (stat.isDirectory()) hiddenFolders.add(p);
  }
  return { hidden, hiddenFolders };
}

function existing(paths: readonly string[]): string[] {
  return paths.filter((p) => identityOf(p) !== null);
}

/** One tiny confined run, as every command will be run; its stderr when it fails. */
function tryBwrap(
  bwrap: string,
  disableUserns: boolean,
  pathVar: string | undefined,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-user',
    ...(disableUserns ? ['--disable-userns'] : []),
    '--unshare-net',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--',
    'true',
  ];
  return new Promise((resolve) => {
    execFile(
      bwrap,
      args,
      { timeout: PROBE_TIMEOUT_MS, env: { PATH: pathVar ?? '/usr/bin:/bin' } },
      (err, _stdout, stderr) => {
        if (!err) return resolve({ ok: true });
        const message = String(stderr).trim().split('\n')[0] || (err as Error).message;
        resolve({ ok: false, message });
      },
    );
  });
}

/**
 * The program's and the app's PATH folders inside a hidden folder of the person's files
 * (/var/tmp holding a checkout, say), shown read-only through it: the emptied folder lets
 * them through and nothing else. From the app's PATH only, as for /tmp.
 */
function programFolders(spec: CommandSpec, hidden: readonly string[]): string[] {
  const named = [spec.argv[0] ?? '', ...(spec.env.PATH ?? '').split(path.delimiter)];
  // Only where the program or a PATH entry is written inside one: resolving every entry for
  // every such folder cost a grep half a millisecond. A link elsewhere that leads into one is
  // not followed there; such a program is missing inside, as it would be without this.
  const personal = hidden.filter((h) => PERSONAL_SYSTEM_PLACES.includes(h) && named.some((p) => p.startsWith(`${h}/`)));
  return personal.flatMap((root) => programFoldersInHidden(root, spec.argv[0] ?? '', spec.env.PATH, hidden));
}
