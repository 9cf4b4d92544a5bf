/**
 * The bridge with the real bubblewrap: a sandbox with a network namespace of its own
 * whose only way out is its door, as the lead's bwrap arguments will build it. curl runs
 * inside; "registry.npmjs.org" is a loopback stand-in on the host (the proxy's test hook
 * sends it there), names resolve from a table, and nothing leaves this machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bridgeArgv, bridgeEnv, bridgeMounts } from '../../../../../../electron/core/sandbox/network/bridge.js';
import { NetworkProxy, type ProxyDoor } from '../../../../../../electron/core/sandbox/network/network-proxy.js';
import { sealArgv } from '../../../../../../electron/core/sandbox/network/seal.js';
import { findSocat } from '../../../../../../electron/core/sandbox/network/socat.js';
import { syscallFilter } from '../../../../../../electron/core/sandbox/syscall-filter.js';
import { startStandIn, tableLookup, type StandIn } from './stand-in.js';

const BWRAP = '/usr/bin/bwrap';
const CURL = '/usr/bin/curl';
const socat = await findSocat(process.env.PATH);
const canRun =
  socat !== null &&
  spawnSync(CURL, ['--version']).status === 0 &&
  spawnSync(BWRAP, ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', '--', 'true']).status === 0;
const openssl = spawnSync('openssl', ['version']).status === 0;
const filter = syscallFilter();

const REFUSED_LINE = "blocked by the sandbox: example.com is not on this command's network list (registry.npmjs.org)";

let fixtures: string;
let privateTmp: string;
let cert: string;
let web: StandIn;
let tlsWeb: StandIn;
let proxy: NetworkProxy;
const doors: ProxyDoor[] = [];

beforeAll(async () => {
  if (!canRun) return;
  // Fixtures a confined process must see go under /var/tmp: its /tmp is private.
  fixtures = await fs.mkdtemp('/var/tmp/gatehouse-net-test-');
  privateTmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-net-private-'));
  web = await startStandIn();
  if (openssl) {
    cert = path.join(fixtures, 'cert.pem');
    const key = path.join(fixtures, 'key.pem');
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=registry.npmjs.org',
      '-addext',
      'subjectAltName=DNS:registry.npmjs.org',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
    tlsWeb = await startStandIn({ key: await fs.readFile(key, 'utf8'), cert: await fs.readFile(cert, 'utf8') });
  }
  proxy = new NetworkProxy({
    lookup: tableLookup({ 'loopback.test': ['127.0.0.1'] }),
    connect: (host, port) =>
      host === 'registry.npmjs.org'
        ? { host: '127.0.0.1', port: port === 443 && tlsWeb ? tlsWeb.port : web.port }
        : undefined,
  });
});
afterEach(async () => {
  await Promise.all(doors.splice(0).map((d) => d.close()));
});
afterAll(async () => {
  if (!canRun) return;
  await proxy.dispose();
  await web.close();
  await tlsWeb?.close();
  await fs.rm(fixtures, { recursive: true, force: true });
  await fs.rm(privateTmp, { recursive: true, force: true });
});

async function door(allow: true | string[]): Promise<ProxyDoor> {
  const d = await proxy.open(allow);
  doors.push(d);
  return d;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs argv in a sandbox like the app's, bridged to `through` when given; resolves when it exits. */
function confined(through: ProxyDoor | null, argv: string[], env: Record<string, string> = {}) {
  const args = [
    '--die-with-parent',
    '--unshare-user',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    privateTmp,
    '/tmp',
    ...(through ? bridgeMounts(through) : []),
    '--',
    ...(through ? bridgeArgv(argv, socat as string) : argv),
  ];
  const child = spawn(BWRAP, args, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: '/tmp', ...(through ? bridgeEnv() : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Ran>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, output: () => stdout };
}

const run = (through: ProxyDoor | null, argv: string[], env: Record<string, string> = {}) =>
  confined(through, argv, env).done;

describe.skipIf(!canRun)('a bridged sandbox', () => {
  it.skipIf(!openssl)(
    'reaches a listed domain over HTTPS through CONNECT, with the proxy taken from the environment',
    async () => {
      const d = await door(['registry.npmjs.org']);
      const r = await run(d, [CURL, '-sS', '--fail', '--cacert', cert, 'https://registry.npmjs.org/tls']);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain('stand-in: GET /tls host=registry.npmjs.org');
    },
  );

  it('reaches a listed domain over plain http (absolute-form) and over SOCKS5 with the name sent to the proxy', async () => {
    // SOCKS5 to port 80 is a tunnel, which carries any Host: it needs the port on the list.
    const d = await door(['registry.npmjs.org', 'registry.npmjs.org:80']);
    const plain = await run(d, [CURL, '-sS', '--fail', 'http://registry.npmjs.org/plain']);
    expect(plain.stdout).toContain('stand-in: GET /plain host=registry.npmjs.org');
    const socks = await run(d, [
      CURL,
      '-sS',
      '--fail',
      '--socks5-hostname',
      '127.0.0.1:3128',
      'http://registry.npmjs.org/socks',
    ]);
    expect(socks.stdout).toContain('stand-in: GET /socks host=registry.npmjs.org');
    // ALL_PROXY alone (socks5h) does it too, for tools that read only that.
    const all = await run(d, [
      '/usr/bin/env',
      '-u',
      'http_proxy',
      '-u',
      'HTTP_PROXY',
      CURL,
      '-sS',
      'http://registry.npmjs.org/all',
    ]);
    expect(all.stdout).toContain('stand-in: GET /all host=registry.npmjs.org');
    if (openssl) {
      const tls = await run(d, [
        CURL,
        '-sS',
        '--fail',
        '--cacert',
        cert,
        '--socks5-hostname',
        '127.0.0.1:3128',
        'https://registry.npmjs.org/tls-socks',
      ]);
      expect(tls.stdout).toContain('stand-in: GET /tls-socks');
    }
    expect(d.refused()).toEqual([]);
  });

  it.skipIf(!openssl || Number(process.versions.node.split('.')[0]) < 24)(
    "takes Node's own fetch through the proxy (NODE_USE_ENV_PROXY)",
    async () => {
      const d = await door(['registry.npmjs.org']);
      const script =
        "fetch('https://registry.npmjs.org/node').then((r) => r.text()).then((t) => process.stdout.write(t))";
      const r = await run(d, [process.execPath, '-e', script], { NODE_EXTRA_CA_CERTS: cert });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('stand-in: GET /node host=registry.npmjs.org');
    },
  );

  it('refuses a domain not on the list with the sandbox line, over plain http, CONNECT and SOCKS', async () => {
    const d = await door(['registry.npmjs.org']);
    const plain = await run(d, [CURL, '-sS', 'http://example.com/']);
    expect(plain.stdout).toBe(`${REFUSED_LINE}\n`);
    const tunnel = await run(d, [CURL, '-sS', '-v', 'https://example.com/']);
    expect(tunnel.code).not.toBe(0);
    expect(tunnel.stderr).toContain(`< HTTP/1.1 403 Forbidden (${REFUSED_LINE})`);
    const socks = await run(d, [CURL, '-sS', '--socks5-hostname', '127.0.0.1:3128', 'http://example.com/']);
    expect(socks.code).toBe(97);
    expect(d.refused()).toEqual(['example.com']);
    expect(d.refusals()[0]?.line).toBe(REFUSED_LINE);
  });

  it.skipIf(!openssl)(
    "refuses domain fronting through a listed domain: a tunnel to its port 80, and another site's TLS through its port 443",
    async () => {
      const d = await door(['registry.npmjs.org']);
      const seen = web.requests.length + tlsWeb.requests.length;
      const port80 = await run(d, [
        CURL,
        '-sS',
        '-v',
        '--proxytunnel',
        '-H',
        'Host: fronted.example',
        'http://registry.npmjs.org/',
      ]);
      expect(port80.code).not.toBe(0);
      expect(port80.stderr).toContain(
        '< HTTP/1.1 403 Forbidden (blocked by the sandbox: a tunnel (CONNECT or SOCKS5) to port 80',
      );
      // curl tunnels to registry.npmjs.org:443 and says "fronted.example" in its ClientHello.
      const fronted = await run(d, [
        CURL,
        '-sS',
        '--cacert',
        cert,
        '--connect-to',
        'fronted.example:443:registry.npmjs.org:443',
        'https://fronted.example/',
      ]);
      expect(fronted.code).not.toBe(0);
      expect(d.refusals().map((r) => r.line)).toContain(
        'blocked by the sandbox: the tunnel to registry.npmjs.org:443 sent a TLS ClientHello for another site (its SNI is "fronted.example"); a tunnel to port 443 of a listed domain carries TLS for that domain only',
      );
      expect(web.requests.length + tlsWeb.requests.length).toBe(seen);
    },
  );

  it("cannot reach the host's loopback: not directly, and not through the proxy even with network: true", async () => {
    const seen = web.requests.length;
    const hostPort = String(web.port);
    const none = await run(null, [CURL, '-sS', '--noproxy', '*', `http://127.0.0.1:${hostPort}/`]);
    expect(none.code).toBe(7);
    const d = await door(true);
    const direct = await run(d, [CURL, '-sS', '--noproxy', '*', `http://127.0.0.1:${hostPort}/`]);
    expect(direct.code).toBe(7);
    expect(direct.stderr).toMatch(/Connection refused|Couldn't connect/);
    const viaHttp = await run(d, [
      CURL,
      '-sS',
      '--noproxy',
      '',
      '-x',
      'http://127.0.0.1:3128',
      `http://127.0.0.1:${hostPort}/`,
    ]);
    expect(viaHttp.stdout).toContain('blocked by the sandbox: 127.0.0.1 is a loopback address (this machine)');
    const viaName = await run(d, [CURL, '-sS', `http://loopback.test:${hostPort}/`]);
    expect(viaName.stdout).toContain('blocked by the sandbox: loopback.test resolves to 127.0.0.1, a loopback address');
    // NO_PROXY sends 127.0.0.1 direct; --noproxy '' makes curl ask the proxy anyway.
    const viaSocks = await run(d, [
      CURL,
      '-sS',
      '--noproxy',
      '',
      '--socks5-hostname',
      '127.0.0.1:3128',
      `http://127.0.0.1:${hostPort}/`,
    ]);
    expect(viaSocks.stderr).toContain('(97)');
    expect(web.requests.length).toBe(seen);
    expect(d.refused()).toEqual(['127.0.0.1', 'loopback.test']);
  });

  it("cannot see the doors' sockets on disk, with network or without", async () => {
    const d = await door(true);
    const other = await door(true);
    const folder = await proxy.socketFolder();
    expect(folder.startsWith('/tmp/')).toBe(true);
    for (const through of [null, d]) {
      const r = await run(through, [
        'sh',
        '-c',
        'test -e "$1" || test -e "$2" && echo seen',
        'sh',
        folder,
        other.socket,
      ]);
      expect(r.stdout).toBe('');
    }
  });

  it("cannot reach the host's abstract Unix sockets", async () => {
    const name = `gatehouse-net-test-${randomBytes(6).toString('hex')}`;
    const server = net.createServer((s) => s.end('host secret\n'));
    await new Promise<void>((resolve) => server.listen(`\0${name}`, resolve));
    try {
      const fromHost = await new Promise<string>((resolve, reject) => {
        let got = '';
        net
          .connect(`\0${name}`)
          .on('data', (c) => (got += c))
          .on('close', () => resolve(got))
          .on('error', reject);
      });
      expect(fromHost).toBe('host secret\n');
      const d = await door(true);
      const r = await run(d, [socat as string, '-u', `ABSTRACT-CONNECT:${name}`, '-']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/Connection refused/);
      expect(r.stdout).toBe('');
    } finally {
      server.close();
    }
  });

  it('ends the open tunnels when the door closes', async () => {
    const d = await door(['registry.npmjs.org', 'registry.npmjs.org:80']);
    const held = web.holding.size;
    const plain = confined(d, [CURL, '-sS', '-N', 'http://registry.npmjs.org/hold']);
    const tunnelled = confined(d, [CURL, '-sS', '-N', '--proxytunnel', 'http://registry.npmjs.org/hold']);
    await expect.poll(() => web.holding.size, { timeout: 10_000 }).toBe(held + 2);
    await expect.poll(() => plain.output() + tunnelled.output(), { timeout: 10_000 }).toBe('first chunk\n'.repeat(2));
    const t0 = Date.now();
    await d.close();
    const [a, b] = await Promise.all([plain.done, tunnelled.done]);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(a.code).not.toBe(0);
    expect(b.code).not.toBe(0);
    await expect.poll(() => web.holding.size, { timeout: 5000 }).toBe(held);
  });

  it('passes the argv through untouched, keeps its exit code, and runs a program whose name starts with "-"', async () => {
    const d = await door(['registry.npmjs.org']);
    const echo = await run(d, ['sh', '-c', 'printf "[%s]" "$@"', 'x', 'a b', '$HOME', '"q"', '*', '$(id)', '', "it's"]);
    expect(echo).toMatchObject({ code: 0, stdout: `[a b][$HOME]["q"][*][$(id)][][it's]` });
    expect((await run(d, ['sh', '-c', 'exit 7'])).code).toBe(7);
    const bin = path.join(fixtures, 'bin');
    await fs.mkdir(bin, { recursive: true });
    await fs.writeFile(path.join(bin, '-dash'), '#!/bin/sh\necho "dash ran with $1"\n', { mode: 0o755 });
    const dash = await run(d, ['-dash', 'arg'], { PATH: `${bin}:${process.env.PATH}` });
    expect(dash).toMatchObject({ code: 0, stdout: 'dash ran with arg\n' });
  });

  it('says so, and does not run the command, when the bridge cannot start', async () => {
    const d = await door(['registry.npmjs.org']);
    const args = [
      '--die-with-parent',
      '--unshare-user',
      '--unshare-pid',
      '--unshare-net',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      privateTmp,
      '/tmp',
      ...bridgeMounts(d),
      '--',
      ...bridgeArgv(['sh', '-c', 'echo ran'], '/nonexistent/socat'),
    ];
    const r = spawnSync(BWRAP, args, { encoding: 'utf8', timeout: 15_000 });
    expect(r.status).toBe(125);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'gatehouse: /nonexistent/socat is missing inside the sandbox, so the network bridge cannot start; the command did not run',
    );
    // A socat that runs but never listens: the wait is bounded.
    const mute = path.join(fixtures, 'mute-socat');
    await fs.writeFile(mute, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const t0 = Date.now();
    const waited = spawnSync(
      BWRAP,
      [...args.slice(0, args.indexOf('--') + 1), ...bridgeArgv(['sh', '-c', 'echo ran'], mute)],
      {
        encoding: 'utf8',
        timeout: 15_000,
      },
    );
    expect(waited.status).toBe(125);
    expect(waited.stdout).toBe('');
    expect(waited.stderr).toContain(
      'gatehouse: the network bridge (socat) did not start inside the sandbox: it did not listen within 5 s; the command did not run',
    );
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});

/**
 * With the app's seccomp program (no Unix sockets) on fd 4: over the whole sandbox
 * (`--seccomp 4`), or only over the command, after the bridge (sealArgv). Without
 * --disable-userns outside, as the sealed way needs; the inner bwrap sets it.
 */
function filtered(through: ProxyDoor, argv: string[], how: 'whole sandbox' | 'sealed'): Promise<Ran> {
  const args = [
    '--die-with-parent',
    '--unshare-user',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    privateTmp,
    '/tmp',
    ...bridgeMounts(through),
    ...(how === 'whole sandbox' ? ['--seccomp', '4'] : []),
    '--chdir',
    '/usr/share',
    '--',
    ...bridgeArgv(how === 'sealed' ? sealArgv(argv, BWRAP, 4) : argv, socat as string),
  ];
  const child = spawn(BWRAP, args, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: '/tmp', ...bridgeEnv() },
    stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe'],
  });
  const programFd = child.stdio[4] as NodeJS.WritableStream;
  programFd.on('error', () => undefined);
  programFd.end(filter ?? Buffer.alloc(0));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(!canRun || !filter)('the bridge and the seccomp program that refuses Unix sockets', () => {
  it("cannot work with the program over the whole sandbox: socat's own Unix socket is refused", async () => {
    const d = await door(['registry.npmjs.org']);
    const r = await filtered(d, [CURL, '-sS', 'http://registry.npmjs.org/whole'], 'whole sandbox');
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('Empty reply from server');
  });

  it('works with the program sealed over the command only: the command still makes no Unix socket nor user namespace', async () => {
    const d = await door(['registry.npmjs.org']);
    const script = [
      'curl -sS http://registry.npmjs.org/sealed',
      `"$1" -u UNIX-CONNECT:/tmp/.gatehouse-net/http.sock - 2>&1 | grep -o 'Operation not permitted'`,
      'unshare -U true 2>/dev/null || echo "no user namespace"',
      'touch /usr/gatehouse-probe 2>/dev/null || echo "read-only /usr"',
      'grep "^Seccomp:" /proc/self/status',
      'pwd',
      'exit 3',
    ].join('\n');
    const r = await filtered(d, ['sh', '-c', script, 'sh', socat as string], 'sealed');
    expect(r.stdout.split('\n')).toEqual([
      'stand-in: GET /sealed host=registry.npmjs.org x-kept=undefined proxy-authorization=undefined',
      'Operation not permitted',
      'no user namespace',
      'read-only /usr',
      'Seccomp:\t2',
      '/usr/share',
      '',
    ]);
    expect(r.code).toBe(3);
  });
});
