import { describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../../../electron/core/sandbox/bwrap-args.js';
import { sandboxViolation } from '../../../../../electron/core/sandbox/violation.js';
import type { SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';

const profile: SandboxProfile = {
  network: false,
  git: false,
  home: '/home/u',
  writable: ['/home/u/src'],
  readOnly: ['/home/u/src/.git', '/home/u/src/.gatehouse'],
  shown: ['/home/u/.cargo/bin', '/home/u/.config'],
  hidden: ['/data', '/home/u/.config/gh', '/home/u/.netrc'],
};
const base = { privateTmp: '/tmp/gatehouse-sandbox-x', homeRoots: ['/home', '/root'], disableUserns: true };

describe('bwrapArgs', () => {
  const args = bwrapArgs({
    argv: ['sh', '-c', 'echo "$HOME" | tr a b'],
    cwd: '/home/u/src',
    profile,
    ...base,
    hiddenFolders: new Set(['/data', '/home/u/.config/gh']),
    seccompFd: 4,
  });

  it('passes the argv exactly, after --, with no shell in between', () => {
    expect(args.slice(args.indexOf('--') + 1)).toEqual(['sh', '-c', 'echo "$HOME" | tr a b']);
    expect(args.slice(args.indexOf('--chdir'), args.indexOf('--chdir') + 2)).toEqual(['--chdir', '/home/u/src']);
  });

  it('has its own PID namespace and /proc, no network, and dies with the app', () => {
    for (const flag of ['--die-with-parent', '--unshare-pid', '--unshare-net', '--unshare-user', '--disable-userns']) {
      expect(args).toContain(flag);
    }
    expect(args.join(' ')).toContain('--proc /proc');
  });

  it('empties the homes, then shows the toolchains read-only, then binds the workspace, then its read-only places, then hides', () => {
    const at = (s: string) => args.join(' ').indexOf(s);
    expect(at('--ro-bind / /')).toBeLessThan(at('--tmpfs /home '));
    expect(at('--tmpfs /home ')).toBeLessThan(at('--tmpfs /home/u '));
    expect(at('--tmpfs /root')).toBeLessThan(at('--tmpfs /home/u '));
    expect(at('--tmpfs /home/u ')).toBeLessThan(at('--ro-bind /home/u/.cargo/bin /home/u/.cargo/bin'));
    expect(at('--tmpfs /home/u ')).toBeLessThan(at('--bind /home/u/src /home/u/src'));
    expect(at('--bind /home/u/src /home/u/src')).toBeLessThan(at('--ro-bind /home/u/src/.git /home/u/src/.git'));
    expect(at('--ro-bind /home/u/src/.gatehouse')).toBeLessThan(at('--tmpfs /home/u/.config/gh --remount-ro'));
    expect(at('--ro-bind /home/u/.config /home/u/.config')).toBeLessThan(at('--tmpfs /home/u/.config/gh'));
    expect(args.join(' ')).toContain('--tmpfs /data --remount-ro /data');
    expect(args.join(' ')).toContain('--ro-bind /dev/null /home/u/.netrc');
    expect(args.join(' ')).toContain('--bind /tmp/gatehouse-sandbox-x /tmp');
  });

  it('loads the seccomp program from the fd it is given, after the mounts', () => {
    expect(args.slice(args.indexOf('--seccomp'), args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '4']);
    expect(args.indexOf('--seccomp')).toBeGreaterThan(args.indexOf('/proc'));
  });

  it('mounts outer folders first and its own /dev and /proc last, so a workspace at / uncovers neither /tmp nor /proc', () => {
    const atRoot = bwrapArgs({
      argv: ['true'],
      cwd: '/',
      profile: { ...profile, writable: ['/'], readOnly: [], hidden: [] },
      ...base,
      privateTmp: '/tmp/p',
      hiddenFolders: new Set(),
    }).join(' ');
    expect(atRoot.indexOf('--bind / /')).toBeLessThan(atRoot.indexOf('--bind /tmp/p /tmp'));
    expect(atRoot.indexOf('--bind /tmp/p /tmp')).toBeLessThan(atRoot.indexOf('--dev /dev'));
    expect(atRoot.indexOf('--dev /dev')).toBeLessThan(atRoot.indexOf('--proc /proc'));
    const underTmp = bwrapArgs({
      argv: ['true'],
      cwd: '/tmp/w',
      profile: { ...profile, writable: ['/tmp/w'], readOnly: [], hidden: [] },
      ...base,
      privateTmp: '/tmp/p',
      hiddenFolders: new Set(),
    }).join(' ');
    expect(underTmp.indexOf('--bind /tmp/p /tmp')).toBeLessThan(underTmp.indexOf('--bind /tmp/w /tmp/w'));
  });

  it('never shares the host network: with network, the way out is the bridge it is given', () => {
    const withNet = bwrapArgs({
      argv: ['true'],
      cwd: '/home/u',
      profile: { ...profile, network: true },
      ...base,
      hiddenFolders: new Set(),
      disableUserns: false,
    });
    expect(withNet).toContain('--unshare-net');
    expect(withNet).not.toContain('--disable-userns');
  });
});

describe("a jail's own identity", () => {
  const inputs = {
    argv: ['node', 'agent.js'],
    cwd: '/home/u/src',
    profile,
    ...base,
    hiddenFolders: new Set(['/data']),
  };

  it('runs as the uid and gid it is given, inside its own user namespace; a command runs as the app', () => {
    const args = bwrapArgs({ ...inputs, identity: { uid: 1000, gid: 1000 } });
    const at = args.indexOf('--unshare-user');
    expect(args.slice(at, at + 5)).toEqual(['--unshare-user', '--uid', '1000', '--gid', '1000']);
    expect(bwrapArgs(inputs)).not.toContain('--uid');
  });

  it('refuses to run a jail as root, or with an id that is not one', () => {
    expect(() => bwrapArgs({ ...inputs, identity: { uid: 0, gid: 1000 } })).toThrow(/non-root id, not 0/);
    expect(() => bwrapArgs({ ...inputs, identity: { uid: 1000, gid: 0 } })).toThrow(/non-root id, not 0/);
    expect(() => bwrapArgs({ ...inputs, identity: { uid: 1.5, gid: 1000 } })).toThrow(/non-root id/);
  });
});

describe('sandboxViolation', () => {
  it.each([
    ["touch: cannot touch '/etc/x': Read-only file system", /^blocked by the sandbox: write outside the workspace/],
    ['sh: 1: cannot create .git/hooks/pre-commit: Read-only file system', /\.git is read-only; ask with git: true/],
    [
      "fatal: Unable to create '/home/u/src/.git/index.lock': Read-only file system",
      /\.git is read-only; ask with git: true/,
    ],
    [
      'sh: 1: cannot create .gatehouse/settings.json: Read-only file system',
      /\/home\/u\/src\/\.gatehouse stays read-only/,
    ],
    ['touch: cannot touch /home/u/.cargo/bin/x: Read-only file system', /\.cargo\/bin is shown read-only/],
    ['cat: /home/u/.ssh/id_rsa: No such file or directory', /\/home\/u\/\.ssh\/id_rsa is not shown to commands/],
    ['cat: /home/u/.config/gh/hosts.yml: No such file or directory', /\/home\/u\/\.config\/gh is hidden from commands/],
    ['OSError: [Errno 1] Operation not permitted (socket.socket(AF_UNIX))', /cannot open Unix sockets/],
    ['curl: (6) Could not resolve host: example.com', /^blocked by the sandbox: no network/],
    ['Error: connect ECONNREFUSED 127.0.0.1:8080', /no network \(run it again with network: true/],
    ['npm ERR! network getaddrinfo EAI_AGAIN registry.npmjs.org', /no network/],
  ])('reads %j', (stderr, line) => {
    expect(sandboxViolation(stderr, profile)).toMatch(line);
  });

  it('says nothing for an ordinary failure, nor of the network when the command had it', () => {
    expect(sandboxViolation('FAIL test/a.test.ts: expected 1 to be 2', profile)).toBeNull();
    expect(sandboxViolation('ECONNREFUSED 127.0.0.1:5432', { ...profile, network: true })).toBeNull();
    expect(sandboxViolation('cannot open /home/u/.cargo/bin/cargo-x: No such file or directory', profile)).toBeNull();
    expect(sandboxViolation('cannot open /home/u/src/missing.txt: No such file or directory', profile)).toBeNull();
  });

  it('shows the host folders a command needs under /tmp read-only, after the private /tmp and before the hidden places', () => {
    const args = bwrapArgs({
      argv: ['/tmp/checkout/node_modules/.bin/tool'],
      cwd: '/home/u',
      profile,
      ...base,
      privateTmp: '/tmp/p',
      shownInTmp: ['/tmp/checkout/node_modules/.bin'],
      hiddenFolders: new Set(['/home/u/.config/gh', '/data']),
    }).join(' ');
    const shown = args.indexOf('--ro-bind /tmp/checkout/node_modules/.bin /tmp/checkout/node_modules/.bin');
    expect(shown).toBeGreaterThan(args.indexOf('--bind /tmp/p /tmp'));
    expect(shown).toBeLessThan(args.indexOf('--tmpfs /home/u/.config/gh'));
  });
});

describe('a hidden folder that holds the workspace or a shown place', () => {
  const args = bwrapArgs({
    argv: ['true'],
    cwd: '/var/tmp/t/ws',
    profile: {
      ...profile,
      writable: ['/var/tmp/t/ws'],
      readOnly: ['/var/tmp/t/ws/.git'],
      shown: ['/home/u/.cargo/bin', '/mnt/tools'],
      hidden: ['/var/tmp', '/mnt', '/srv', '/home/u/.config/gh', '/home/u/.config/gh/hosts.yml', '/mnt/tools/.npmrc'],
    },
    ...base,
    hiddenFolders: new Set(['/var/tmp', '/mnt', '/srv', '/home/u/.config/gh']),
  });
  const line = args.join(' ');
  const at = (s: string) => line.indexOf(s);

  it('is emptied before what it holds is mounted, and made read-only after everything', () => {
    expect(at('--tmpfs /var/tmp ')).toBeLessThan(at('--bind /var/tmp/t/ws /var/tmp/t/ws'));
    expect(at('--tmpfs /mnt ')).toBeLessThan(at('--ro-bind /mnt/tools /mnt/tools'));
    expect(at('--ro-bind /dev/null /mnt/tools/.npmrc')).toBeLessThan(at('--remount-ro /mnt '));
    expect(at('--remount-ro /var/tmp ')).toBeGreaterThan(at('--ro-bind /var/tmp/t/ws/.git'));
    expect(at('--remount-ro /var/tmp ')).toBeLessThan(at('--dev /dev'));
    // One that holds nothing shown is covered whole, as any hidden folder.
    expect(line).toContain('--tmpfs /srv --remount-ro /srv');
  });

  it('mounts nothing inside a hidden folder that already hides it', () => {
    expect(line).not.toContain('/home/u/.config/gh/hosts.yml');
    expect(line).toContain('--tmpfs /home/u/.config/gh --remount-ro /home/u/.config/gh');
  });
});
