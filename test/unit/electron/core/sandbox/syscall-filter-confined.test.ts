/**
 * What a confined command meets of the seccomp program (syscall-filter.ts), with the real
 * bubblewrap, through the app's own confined run: io_uring, which once made and connected
 * Unix sockets past the filter (issue 31), is not there; only internet and netlink sockets
 * can be made (no AF_VSOCK to the hypervisor, no AF_PACKET, no AF_UNIX) while
 * socketpair(AF_UNIX) still works; and the app's session keyring is out of reach. Node and
 * npm still work under it. Probes are perl's syscall() with x86_64's numbers.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runToEnd, type RunOutcome } from '../../../../../electron/core/process/command-run.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import type { Sandbox } from '../../../../../electron/core/sandbox/sandbox.js';

// The probes use x86_64's numbers; bubblewrap itself is required, as for the other confined tests.
const x86_64 = process.platform === 'linux' && process.arch === 'x64';

let root: string;
let home: string;
let dataDir: string;
let ws: string;

beforeEach(async () => {
  // Under /var/tmp: a confined command has a private /tmp.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-seccomp-')));
  home = path.join(root, 'home');
  dataDir = path.join(home, '.config', 'Gatehouse');
  ws = path.join(home, 'src', 'app');
  await fs.mkdir(path.join(dataDir, 'sessions'), { recursive: true });
  await fs.mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Each probe prints its name and "ok" or "refused <errno>". */
const PROBE_LIB = `sub show { my ($name, $r) = @_; print "$name ", ($r >= 0 ? "ok" : "refused " . ($! + 0)), "\\n"; }\n`;

/** The command run as the app runs it confined, with network or not; `sandbox` may stand around the app's. */
async function confined(argv: string[], options: { network?: boolean; sandbox?: (s: Sandbox) => Sandbox } = {}) {
  const app = new BwrapSandbox({
    dataDir,
    home,
    env: process.env,
    // With network, a proxy that resolves nothing: these probes never dial out.
    network: { lookup: async () => [], connect: () => undefined },
  });
  const sandbox = options.sandbox ? options.sandbox(app) : app;
  try {
    const profile = await app.profile(ws, { network: options.network ? true : false, git: false });
    return await runToEnd({ argv, cwd: ws, env: { PATH: process.env.PATH }, timeoutMs: 25_000 }, { sandbox, profile });
  } finally {
    await app.dispose();
  }
}

function lines(outcome: RunOutcome): string[] {
  expect(outcome.stderr.text).toBe('');
  expect(outcome.exitCode).toBe(0);
  return outcome.stdout.text.trim().split('\n');
}

const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

const IO_URING = `${PROBE_LIB}
my $params = "\\0" x 120;
show("io_uring_setup", syscall(425, 8, $params));
show("io_uring_enter", syscall(426, 0, 0, 0, 0, 0, 0));
show("io_uring_register", syscall(427, 0, 0, 0, 0));
`;

const SOCKETS = `${PROBE_LIB}
show("AF_VSOCK", syscall(41, 40, 1, 0));
show("AF_PACKET", syscall(41, 17, 3, 0));
show("AF_UNIX", syscall(41, 1, 1, 0));
show("AF_INET", syscall(41, 2, 1, 0));
show("AF_INET6", syscall(41, 10, 2, 0));
show("AF_NETLINK", syscall(41, 16, 3, 0));
my $pair = "\\0" x 8;
show("socketpair(AF_UNIX)", syscall(53, 1, 1, 0, $pair));
`;

describe.skipIf(!x86_64)("a confined command's system calls", () => {
  it('cannot set up io_uring (whose own socket and connect once reached Unix sockets): ENOSYS, as on a kernel without it', async () => {
    expect(lines(await confined(['perl', '-e', IO_URING]))).toEqual([
      `io_uring_setup refused ${ENOSYS}`,
      `io_uring_enter refused ${ENOSYS}`,
      `io_uring_register refused ${ENOSYS}`,
    ]);
  });

  it('makes only internet and netlink sockets: no AF_VSOCK, AF_PACKET or AF_UNIX; socketpair(AF_UNIX) still works', async () => {
    expect(lines(await confined(['perl', '-e', SOCKETS]))).toEqual([
      `AF_VSOCK refused ${EAFNOSUPPORT}`,
      `AF_PACKET refused ${EAFNOSUPPORT}`,
      `AF_UNIX refused ${EPERM}`,
      'AF_INET ok',
      'AF_INET6 ok',
      'AF_NETLINK ok',
      'socketpair(AF_UNIX) ok',
    ]);
  });

  it('meets the same program with network, where it is sealed over the command after the bridge', async () => {
    expect(lines(await confined(['perl', '-e', `${IO_URING}${SOCKETS}`], { network: true }))).toEqual([
      `io_uring_setup refused ${ENOSYS}`,
      `io_uring_enter refused ${ENOSYS}`,
      `io_uring_register refused ${ENOSYS}`,
      `AF_VSOCK refused ${EAFNOSUPPORT}`,
      `AF_PACKET refused ${EAFNOSUPPORT}`,
      `AF_UNIX refused ${EPERM}`,
      'AF_INET ok',
      'AF_INET6 ok',
      'AF_NETLINK ok',
      'socketpair(AF_UNIX) ok',
    ]);
  });

  it("cannot reach the app's session keyring, nor add or ask for keys: ENOSYS, as on a kernel without keys", async () => {
    const secret = `GATEHOUSE-SESSION-KEY-${process.pid}`;
    // The app holds a session keyring (pam_keyinit gives one to a desktop session) with a
    // key in it, and bwrap starts from the app, so the command would possess that keyring.
    const withAppKeyring = (app: Sandbox): Sandbox => ({
      availability: () => app.availability(),
      profile: (w, r) => app.profile(w, r),
      dispose: () => app.dispose(),
      confine: async (spec, profile) => {
        const inner = await app.confine(spec, profile);
        const join = [
          'syscall(250, 1, my $n = "gatehouse-app") >= 0 or die "join: $!";',
          `my ($type, $name, $value) = ("user", "gatehouse-probe", "${secret}");`,
          'syscall(248, $type, $name, $value, length $value, -3) >= 0 or die "add: $!";',
          'exec @ARGV or die "exec: $!";',
        ].join(' ');
        return { ...inner, argv: ['perl', '-e', join, ...inner.argv] };
      },
    });
    const probe = `${PROBE_LIB}
my $id = syscall(250, 10, -3, my $t = "user", my $d = "gatehouse-probe", 0);
show("search the session keyring", $id);
my $buf = "\\0" x 200;
my $n = syscall(250, 11, $id, $buf, 200);
show("read the key", $n);
print substr($buf, 0, $n), "\\n" if $n > 0;
show("add_key", syscall(248, my $t2 = "user", my $d2 = "planted", my $v2 = "x", 1, -3));
show("request_key", syscall(249, my $t3 = "user", my $d3 = "gatehouse-probe", 0, 0));
show("the user keyring's id", syscall(250, 0, -4, 0));
`;
    const outcome = await confined(['perl', '-e', probe], { sandbox: withAppKeyring });
    expect(outcome.stdout.text).not.toContain(secret);
    expect(lines(outcome)).toEqual([
      `search the session keyring refused ${ENOSYS}`,
      `read the key refused ${ENOSYS}`,
      `add_key refused ${ENOSYS}`,
      `request_key refused ${ENOSYS}`,
      `the user keyring's id refused ${ENOSYS}`,
    ]);
  });

  it("still runs Node (its file I/O falls back from io_uring; child_process's socketpair) and npm", async () => {
    const script = [
      "const fs = require('fs');",
      "fs.writeFileSync('written.txt', 'node wrote this');",
      "fs.promises.readFile('written.txt', 'utf8').then((text) => {",
      "  require('child_process').execFileSync('true');",
      "  const server = require('net').createServer().listen(0, '127.0.0.1', () => {",
      "    console.log(text, 'and listened on loopback');",
      '    server.close();',
      '  });',
      '});',
    ].join('\n');
    expect(lines(await confined([process.execPath, '-e', script]))).toEqual([
      'node wrote this and listened on loopback',
    ]);
    const npm = await confined(['npm', '--version']);
    expect(npm.exitCode).toBe(0);
    expect(npm.stdout.text).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
