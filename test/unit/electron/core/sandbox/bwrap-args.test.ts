import { describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../../../electron/core/sandbox/bwrap-args.js';
import { sandboxViolation } from '../../../../../electron/core/sandbox/violation.js';
import type { SandboxProfile } from '../../../../../electron/core/sandbox/sandbox.js';

const profile: SandboxProfile = {
  network: false,
  writable: ['/home/u'],
  readOnly: ['/home/u/.git/hooks'],
  hidden: ['/data', '/home/u/.ssh', '/home/u/.netrc'],
};

describe('bwrapArgs', () => {
  const args = bwrapArgs({
    argv: ['sh', '-c', 'echo "$HOME" | tr a b'],
    cwd: '/home/u/src',
    profile,
    privateTmp: '/tmp/gatehouse-sandbox-x',
    hiddenFolders: new Set(['/data', '/home/u/.ssh']),
    disableUserns: true,
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

  it('mounts the hidden places last, so they stay hidden inside the writable workspace', () => {
    const at = (s: string) => args.join(' ').indexOf(s);
    expect(at('--ro-bind / /')).toBeLessThan(at('--bind /home/u /home/u'));
    expect(at('--bind /home/u /home/u')).toBeLessThan(at('--ro-bind /home/u/.git/hooks /home/u/.git/hooks'));
    expect(at('--ro-bind /home/u/.git/hooks')).toBeLessThan(at('--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh'));
    expect(args.join(' ')).toContain('--tmpfs /data --remount-ro /data');
    expect(args.join(' ')).toContain('--ro-bind /dev/null /home/u/.netrc');
    expect(args.join(' ')).toContain('--bind /tmp/gatehouse-sandbox-x /tmp');
  });

  it('mounts outer folders first and its own /dev and /proc last, so a workspace at / uncovers neither /tmp nor /proc', () => {
    const atRoot = bwrapArgs({
      argv: ['true'],
      cwd: '/',
      profile: { ...profile, writable: ['/'], readOnly: [], hidden: [] },
      privateTmp: '/tmp/p',
      hiddenFolders: new Set(),
      disableUserns: true,
    }).join(' ');
    expect(atRoot.indexOf('--bind / /')).toBeLessThan(atRoot.indexOf('--bind /tmp/p /tmp'));
    expect(atRoot.indexOf('--bind /tmp/p /tmp')).toBeLessThan(atRoot.indexOf('--dev /dev'));
    expect(atRoot.indexOf('--dev /dev')).toBeLessThan(atRoot.indexOf('--proc /proc'));
    const underTmp = bwrapArgs({
      argv: ['true'],
      cwd: '/tmp/w',
      profile: { ...profile, writable: ['/tmp/w'], readOnly: [], hidden: [] },
      privateTmp: '/tmp/p',
      hiddenFolders: new Set(),
      disableUserns: true,
    }).join(' ');
    expect(underTmp.indexOf('--bind /tmp/p /tmp')).toBeLessThan(underTmp.indexOf('--bind /tmp/w /tmp/w'));
  });

  it('shares the network only when the profile has it', () => {
    const withNet = bwrapArgs({
      argv: ['true'],
      cwd: '/home/u',
      profile: { ...profile, network: true },
      privateTmp: '/tmp/x',
      hiddenFolders: new Set(),
      disableUserns: false,
    });
    expect(withNet).not.toContain('--unshare-net');
    expect(withNet).not.toContain('--disable-userns');
  });
});

describe('sandboxViolation', () => {
  it.each([
    ["touch: cannot touch '/etc/x': Read-only file system", /^blocked by the sandbox: write outside the workspace/],
    ['sh: 1: cannot create .git/hooks/pre-commit: Read-only file system', /\/home\/u\/\.git\/hooks stays read-only/],
    ['cat: /home/u/.ssh/id_rsa: No such file or directory', /\/home\/u\/\.ssh is hidden from commands/],
    ['cat: .netrc: Permission denied', /\/home\/u\/\.netrc is hidden/],
    ['curl: (6) Could not resolve host: example.com', /^blocked by the sandbox: no network/],
    ['Error: connect ECONNREFUSED 127.0.0.1:8080', /no network \(run it again with network: true/],
    ['npm ERR! network getaddrinfo EAI_AGAIN registry.npmjs.org', /no network/],
  ])('reads %j', (stderr, line) => {
    expect(sandboxViolation(stderr, profile)).toMatch(line);
  });

  it('says nothing for an ordinary failure, nor of the network when the command had it', () => {
    expect(sandboxViolation('FAIL test/a.test.ts: expected 1 to be 2', profile)).toBeNull();
    expect(sandboxViolation('ECONNREFUSED 127.0.0.1:5432', { ...profile, network: true })).toBeNull();
    expect(sandboxViolation('cannot open /home/u/.sshd_config', profile)).toBeNull();
  });

  it('shows the host folders a command needs under /tmp read-only, after the private /tmp and before the hidden places', () => {
    const args = bwrapArgs({
      argv: ['/tmp/checkout/node_modules/.bin/tool'],
      cwd: '/home/u',
      profile,
      privateTmp: '/tmp/p',
      shownInTmp: ['/tmp/checkout/node_modules/.bin'],
      hiddenFolders: new Set(['/home/u/.ssh', '/data']),
      disableUserns: true,
    }).join(' ');
    const shown = args.indexOf('--ro-bind /tmp/checkout/node_modules/.bin /tmp/checkout/node_modules/.bin');
    expect(shown).toBeGreaterThan(args.indexOf('--bind /tmp/p /tmp'));
    expect(shown).toBeLessThan(args.indexOf('--tmpfs /home/u/.ssh'));
  });
});
