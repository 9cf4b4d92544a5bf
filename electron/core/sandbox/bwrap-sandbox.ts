/**
 * The sandbox on Linux: bubblewrap, run directly with an exact argv (see sandbox.ts for
 * why not @anthropic-ai/sandbox-runtime). Elsewhere, and where bubblewrap cannot start,
 * it says why and what to install, and confines nothing.
 */
import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs } from './bwrap-args.js';
import { hostTmpPaths } from './host-tmp-paths.js';
import { signalNamespaceOf } from './namespace-signal.js';
import { defaultProfile, isWithin } from './profile.js';
import type { CommandSpec, ConfinedSpec, Sandbox, SandboxAvailability, SandboxProfile } from './sandbox.js';

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
}

/** How long the start-up check may take before bubblewrap counts as unusable. */
const PROBE_TIMEOUT_MS = 5000;

const INSTALL_BWRAP =
  'Install bubblewrap (Debian and Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap), then restart Gatehouse.';

interface Usable {
  bwrap: string;
  disableUserns: boolean;
}

export class BwrapSandbox implements Sandbox {
  private checked: Promise<{ availability: SandboxAvailability; usable: Usable | null }> | null = null;

  constructor(private readonly options: BwrapSandboxOptions) {}

  async availability(): Promise<SandboxAvailability> {
    return (await this.check()).availability;
  }

  profile(workspaceRoot: string, options: { network: boolean }): Promise<SandboxProfile> {
    const { dataDir, home, env } = this.options;
    return defaultProfile({ workspace: workspaceRoot, dataDir, home, env, network: options.network });
  }

  async confine(spec: CommandSpec, profile: SandboxProfile): Promise<ConfinedSpec> {
    const { usable, availability } = await this.check();
    if (!usable) throw new Error(`commands cannot be confined here: ${(availability as { reason: string }).reason}`);
    // A read-only place that does not exist yet (a repository's hooks folder) is made empty first,
    // so there is something to mount read-only; one whose parent is gone is left out.
    const readOnly: string[] = [];
    for (const p of profile.readOnly) {
      if (
        await fs.mkdir(p, { recursive: false }).then(
          () => true,
          (err: NodeJS.ErrnoException) => err.code === 'EEXIST',
        )
      ) {
        readOnly.push(p);
      }
    }
    const privateTmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-sandbox-'));
    const hiddenFolders = new Set<string>();
    const hidden: string[] = [];
    for (const p of profile.hidden) {
      const stat = await fs.stat(p).catch(() => null);
      if (!stat) continue; // gone since the profile was made: nothing left to hide
      hidden.push(p);
      if (stat.isDirectory()) hiddenFolders.add(p);
    }
    const args = bwrapArgs({
      argv: spec.argv,
      cwd: spec.cwd,
      profile: { ...profile, readOnly, hidden },
      privateTmp,
      shownInTmp: hostTmpPaths(spec.argv[0] ?? '', spec.env.PATH, hidden).filter(
        (p) => !profile.writable.some((w) => isWithin(p, w)),
      ),
      hiddenFolders,
      disableUserns: usable.disableUserns,
    });
    return {
      argv: [usable.bwrap, ...args],
      cwd: spec.cwd,
      // Its temporary folder is the private /tmp, whatever the app's TMPDIR says.
      env: { ...spec.env, TMPDIR: '/tmp' },
      signalInside: signalNamespaceOf,
      initPidOnFd3: true,
      release: () => fs.rm(privateTmp, { recursive: true, force: true }),
    };
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
    const withDisable = await tryBwrap(bwrap, true, this.options.env.PATH);
    if (withDisable.ok)
      return { availability: { available: true, kind: 'bubblewrap' }, usable: { bwrap, disableUserns: true } };
    const plain = await tryBwrap(bwrap, false, this.options.env.PATH);
    if (plain.ok)
      return { availability: { available: true, kind: 'bubblewrap' }, usable: { bwrap, disableUserns: false } };
    if (/namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(plain.message)) {
      return unusable(
        `user namespaces are off, so bubblewrap cannot start (${plain.message})`,
        'Allow unprivileged user namespaces: on Debian, sudo sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 23.10 and later, give bwrap an AppArmor profile that allows userns (or sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0). Then restart Gatehouse.',
      );
    }
    return unusable(`bubblewrap cannot start here (${plain.message})`, INSTALL_BWRAP);
  }
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

/** The first executable `name` on PATH (absolute entries only: never the working folder). */
export async function findOnPath(name: string, pathVar: string | undefined): Promise<string | null> {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      await fs.access(candidate, constants.X_OK);
      if ((await fs.stat(candidate)).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
