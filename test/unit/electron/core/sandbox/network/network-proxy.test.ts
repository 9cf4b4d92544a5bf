/**
 * The proxy's doors, spoken to directly on their Unix sockets (no sandbox): what each
 * policy lets through, what it refuses and in which words, and that a closed door ends
 * its tunnels. Nothing leaves this machine: "registry.npmjs.org" is redirected to a
 * loopback stand-in, and names are resolved from a table.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NetworkProxy, type ProxyDoor } from '../../../../../../electron/core/sandbox/network/network-proxy.js';
import { refusalSummary } from '../../../../../../electron/core/sandbox/network/refusal.js';
import { capturedClientHello } from './client-hellos.js';
import { startRecorder, startStandIn, tableLookup, type Recorder, type StandIn } from './stand-in.js';

let standIn: StandIn;
/** Where tunnels to port 443 land: it keeps what they passed on. */
let recorder: Recorder;
let proxy: NetworkProxy;
const doors: ProxyDoor[] = [];

beforeAll(async () => {
  standIn = await startStandIn();
  recorder = await startRecorder();
  proxy = new NetworkProxy({
    lookup: tableLookup({
      'loopback.test': ['127.0.0.1'],
      'private.test': ['192.168.1.20', '::1'],
      'app.localhost': ['93.184.215.14'],
    }),
    connect: (host, port) =>
      host === 'registry.npmjs.org'
        ? { host: '127.0.0.1', port: port === 443 ? recorder.port : standIn.port }
        : undefined,
  });
});
afterEach(async () => {
  await Promise.all(doors.splice(0).map((d) => d.close()));
});
afterAll(async () => {
  await proxy.dispose();
  await standIn.close();
  await recorder.close();
});

async function open(allow: true | string[]): Promise<ProxyDoor> {
  const door = await proxy.open(allow);
  doors.push(door);
  return door;
}

/** Writes `bytes` to a Unix socket and collects what comes back until `done` says so or the peer closes. */
function exchange(
  socketPath: string,
  bytes: Buffer | string,
  done: (got: Buffer) => boolean = () => false,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let got = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      got = Buffer.concat([got, chunk]);
      if (done(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

function viaHttpProxy(door: ProxyDoor, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; message: string; body: string }>((resolve, reject) => {
    const req = http.request({ socketPath: door.socket, path: url, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: res.statusMessage ?? '', body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const normalized = (host: string) => host.toLowerCase().replace(/\.$/, '');
const connect = (target: string, after = '') => `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n${after}`;
const b = (...bytes: number[]) => Buffer.from(bytes);

/**
 * A SOCKS5 CONNECT, then `bytes` once the proxy has answered it (as a client does: a
 * ClientHello is longer than the handshake the proxy reads at once). Resolves with all
 * that came back, when the proxy closes; `stay` leaves the socket open after sending.
 */
function afterSocks(socketPath: string, name: string, port: number, bytes: Buffer, stay = false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let got = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const before = got.length;
      got = Buffer.concat([got, chunk]);
      if (before < 12 && got.length >= 12) {
        socket.write(bytes);
        if (stay) resolve(got);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    socket.write(socksConnect(name, port));
  });
}
const socksConnect = (name: string, port: number) =>
  Buffer.concat([b(5, 1, 0), b(5, 1, 0, 3, name.length), Buffer.from(name), b(port >> 8, port & 0xff)]);

describe('a door', () => {
  it('listens on a Unix socket of its own in a private 0700 folder, with a short path', async () => {
    const [a, c] = [await open(['registry.npmjs.org']), await open(true)];
    const folder = a.socket.slice(0, a.socket.lastIndexOf('/'));
    expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
    for (const p of [a.socket, c.socket]) {
      expect((await fs.stat(p)).isSocket()).toBe(true);
      expect(Buffer.byteLength(p)).toBeLessThan(108);
    }
    expect(a.socket).not.toBe(c.socket);
  });

  it('speaks HTTP proxy and SOCKS5 on that one socket, told apart by the first byte', async () => {
    const door = await open(['registry.npmjs.org:80']);
    const viaHttp = await exchange(
      door.socket,
      connect('registry.npmjs.org:80', 'GET /as-http HTTP/1.0\r\nHost: registry.npmjs.org\r\n\r\n'),
    );
    expect(viaHttp.toString()).toContain('stand-in: GET /as-http');
    const viaSocks = await exchange(
      door.socket,
      Buffer.concat([socksConnect('registry.npmjs.org', 80), Buffer.from('GET /as-socks HTTP/1.0\r\n\r\n')]),
    );
    expect([...viaSocks.subarray(0, 4)]).toEqual([5, 0, 5, 0]);
    expect(viaSocks.toString()).toContain('stand-in: GET /as-socks');
  });

  it('drops a client that connects and says nothing, once the door closes', async () => {
    const door = await open(true);
    const silent = net.connect(door.socket);
    await new Promise((r) => silent.once('connect', r));
    const closed = new Promise((r) => silent.once('close', r));
    await door.close();
    await closed;
  });

  it('refuses an invalid list before listening', async () => {
    await expect(proxy.open(['https://registry.npmjs.org'])).rejects.toThrow(
      /invalid network list: "https:\/\/registry.npmjs.org" is a URL/,
    );
    await expect(proxy.open([])).rejects.toThrow(/empty list allows nothing/);
  });
});

describe('the HTTP proxy', () => {
  it('tunnels CONNECT to port 443 of a listed domain, passing on its ClientHello and what follows, byte for byte', async () => {
    const door = await open(['Registry.npmjs.org']);
    const hello = await capturedClientHello('registry.npmjs.org');
    const seen = recorder.received.length;
    const socket = net.connect(door.socket);
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    // The CONNECT and the ClientHello's first bytes together, the rest after: the proxy waits for the whole.
    socket.write(Buffer.concat([Buffer.from(connect('registry.npmjs.org:443')), hello.subarray(0, 7)]));
    await expect.poll(() => answer).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
    socket.write(hello.subarray(7));
    socket.write('after the hello');
    await expect.poll(() => recorder.received[seen]?.length).toBe(hello.length + 'after the hello'.length);
    expect(recorder.received[seen]).toEqual(Buffer.concat([hello, Buffer.from('after the hello')]));
    socket.destroy();
    expect(door.refused()).toEqual([]);
  });

  it('refuses CONNECT to another domain with a 403 that says why, in the reason phrase and the body', async () => {
    const door = await open(['registry.npmjs.org']);
    const text = (await exchange(door.socket, connect('example.com:443'))).toString();
    const line = "blocked by the sandbox: example.com is not on this command's network list (registry.npmjs.org)";
    expect(text.split('\r\n')[0]).toBe(`HTTP/1.1 403 Forbidden (${line})`);
    expect(text).toContain(`\r\n\r\n${line}\n`);
    expect(door.refused()).toEqual(['example.com']);
    expect(refusalSummary(door.refusals(), door.allow)).toBe(
      `${line} (run it again with example.com added to network if the command needs it)`,
    );
  });

  it('answers a malformed CONNECT with 400 and keeps serving', async () => {
    const door = await open(true);
    expect((await exchange(door.socket, connect('no-port'))).toString()).toMatch(/^HTTP\/1.1 400 /);
    expect((await exchange(door.socket, connect('a b:1'))).toString()).toMatch(/^HTTP\/1.1 400 /);
    const text = (
      await exchange(door.socket, connect('registry.npmjs.org:80', 'GET /again HTTP/1.0\r\n\r\n'))
    ).toString();
    expect(text).toContain('stand-in: GET /again');
  });

  it('passes an absolute-form http request on, with the URL as Host and the proxy headers dropped', async () => {
    const door = await open(['registry.npmjs.org']);
    const res = await viaHttpProxy(door, 'http://registry.npmjs.org/plain?q=1', {
      host: 'fronted.example',
      'proxy-authorization': 'Basic c2VjcmV0',
      'x-kept': 'yes',
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('stand-in: GET /plain?q=1 host=registry.npmjs.org');
    expect(res.body).toContain('x-kept=yes proxy-authorization=undefined');
  });

  it('refuses a plain request to another domain with the line as its body', async () => {
    const door = await open(['registry.npmjs.org']);
    const res = await viaHttpProxy(door, 'http://example.com/');
    expect(res.status).toBe(403);
    expect(res.body).toBe(
      "blocked by the sandbox: example.com is not on this command's network list (registry.npmjs.org)\n",
    );
  });

  it('answers a request that is not in absolute form with 400', async () => {
    const door = await open(true);
    const res = await viaHttpProxy(door, '/just-a-path');
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/this is a proxy/);
  });
});

describe('addresses', () => {
  it('refuses an IP address when the policy is a list', async () => {
    const door = await open(['registry.npmjs.org']);
    const text = (await exchange(door.socket, connect('93.184.215.14:443'))).toString();
    expect(text).toContain(
      'blocked by the sandbox: 93.184.215.14 is an IP address; this command may reach only the domains on its network list (registry.npmjs.org)',
    );
  });

  it('never reaches loopback or the local network, even with true, by address or by a name resolving there', async () => {
    const door = await open(true);
    const cases: [string, RegExp][] = [
      [`127.0.0.1:${standIn.port}`, /127\.0\.0\.1 is a loopback address \(this machine\)/],
      [`[::1]:${standIn.port}`, /::1 is a loopback address/],
      [`0.0.0.0:${standIn.port}`, /0\.0\.0\.0 is an unspecified/],
      [`169.254.169.254:80`, /link-local address/],
      [`loopback.test:${standIn.port}`, /loopback\.test resolves to 127\.0\.0\.1, a loopback address/],
      [`private.test:80`, /private\.test resolves to 192\.168\.1\.20, a private-network address/],
    ];
    for (const [target, words] of cases) {
      const text = (await exchange(door.socket, connect(target))).toString();
      expect(text, target).toMatch(/^HTTP\/1.1 403 /);
      expect(text, target).toMatch(words);
    }
    const plain = await viaHttpProxy(door, `http://127.0.0.1:${standIn.port}/`);
    expect(plain.status).toBe(403);
    expect(standIn.requests).not.toContainEqual(expect.objectContaining({ host: `127.0.0.1:${standIn.port}` }));
    expect(door.refused()).toEqual(['127.0.0.1', '::1', '0.0.0.0', '169.254.169.254', 'loopback.test', 'private.test']);
  });

  it('refuses localhost and its subdomains as this machine, whatever a resolver says of them', async () => {
    const door = await open(true);
    for (const host of ['localhost', 'LocalHost.', 'app.localhost']) {
      const text = (await exchange(door.socket, connect(`${host}:${standIn.port}`))).toString();
      expect(text, host).toMatch(/^HTTP\/1.1 403 /);
      expect(text, host).toContain(
        `${normalized(host)} is this machine; commands never reach this machine or its local network`,
      );
    }
  });

  it('says a name that does not resolve is unreachable, which is not a refusal', async () => {
    const door = await open(true);
    const text = (await exchange(door.socket, connect('nowhere.invalid:443'))).toString();
    expect(text).toMatch(/^HTTP\/1.1 502 Bad Gateway/);
    expect(text).toContain('could not resolve nowhere.invalid');
    expect(door.refused()).toEqual([]);
  });
});

describe('ports, and what a tunnel carries, under a list', () => {
  it('refuses a tunnel to port 80 of a listed domain, which could carry any Host (domain fronting), and still passes plain http there', async () => {
    const door = await open(['registry.npmjs.org']);
    const seen = standIn.requests.length;
    const fronted = 'GET / HTTP/1.1\r\nHost: fronted.example\r\n\r\n';
    const text = (await exchange(door.socket, connect('registry.npmjs.org:80', fronted))).toString();
    expect(text).toMatch(/^HTTP\/1.1 403 /);
    expect(text).toContain(
      'blocked by the sandbox: a tunnel (CONNECT or SOCKS5) to port 80 of registry.npmjs.org could carry requests for any site; send plain http:// requests through the proxy (http_proxy) instead',
    );
    const socks = await exchange(
      door.socket,
      Buffer.concat([socksConnect('registry.npmjs.org', 80), Buffer.from(fronted)]),
    );
    expect([...socks.subarray(2, 4)]).toEqual([5, 2]);
    expect(standIn.requests.length).toBe(seen);
    const plain = await viaHttpProxy(door, 'http://registry.npmjs.org/plain', { host: 'fronted.example' });
    expect(plain.body).toContain('stand-in: GET /plain host=registry.npmjs.org');
    expect(refusalSummary(door.refusals(), door.allow)).not.toMatch(/run it again/);
  });

  it('reaches a port the card names, tunnelled or plain, and no other port of that domain', async () => {
    const door = await open(['registry.npmjs.org:8080']);
    const tunnelled = await exchange(door.socket, connect('registry.npmjs.org:8080', 'GET /named HTTP/1.0\r\n\r\n'));
    expect(tunnelled.toString()).toContain('stand-in: GET /named');
    const plain = await viaHttpProxy(door, 'http://registry.npmjs.org:8080/named-plain');
    expect(plain.body).toContain('stand-in: GET /named-plain host=registry.npmjs.org:8080');
    const other = (await exchange(door.socket, connect('registry.npmjs.org:443'))).toString();
    expect(other).toMatch(/^HTTP\/1.1 403 .*port 443 of registry\.npmjs\.org is not on this command's network list/);
    expect((await viaHttpProxy(door, 'http://registry.npmjs.org/')).status).toBe(403);
    expect(refusalSummary(door.refusals(), door.allow)).toMatch(
      /\(run it again with registry\.npmjs\.org added to network if the command needs it\)$/,
    );
  });

  it('sends a plain http request to port 80 of a listed domain only', async () => {
    const door = await open(['registry.npmjs.org']);
    const res = await viaHttpProxy(door, 'http://registry.npmjs.org:8080/');
    expect(res.status).toBe(403);
    expect(res.body).toMatch(/port 8080 of registry\.npmjs\.org is not on .* as in registry\.npmjs\.org:8080/);
  });

  it('closes a tunnel to port 443 whose ClientHello names another site, names none, or is not TLS, and says why', async () => {
    const seen = recorder.received.length;
    const cases: [Buffer, RegExp][] = [
      [
        await capturedClientHello('fronted.example'),
        /sent a TLS ClientHello for another site \(its SNI is "fronted\.example"\)/,
      ],
      [await capturedClientHello(), /sent a TLS ClientHello that names no server \(SNI\)/],
      [Buffer.from('GET / HTTP/1.1\r\nHost: fronted.example\r\n\r\n'), /did not start with a TLS ClientHello/],
    ];
    let door: ProxyDoor | undefined;
    for (const [bytes, why] of cases) {
      door = await open(['registry.npmjs.org']);
      const viaConnect = await exchange(
        door.socket,
        Buffer.concat([Buffer.from(connect('registry.npmjs.org:443')), bytes]),
      );
      expect(viaConnect.toString()).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
      const viaSocks = await afterSocks(door.socket, 'registry.npmjs.org', 443, bytes);
      expect([...viaSocks]).toEqual([5, 0, 5, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
      expect(door.refusals().map((r) => r.line)).toEqual([expect.stringMatching(why)]);
    }
    expect(door?.refusals()[0]?.line).toBe(
      'blocked by the sandbox: the tunnel to registry.npmjs.org:443 did not start with a TLS ClientHello; a tunnel to port 443 of a listed domain carries TLS for that domain only',
    );
    // The destination was dialled (its address checked), and not one byte reached it.
    await expect.poll(() => recorder.received.length).toBe(seen + 2 * cases.length);
    expect(recorder.received.slice(seen).map((b) => b.length)).toEqual(Array(2 * cases.length).fill(0));
  });

  it('passes a ClientHello for the host through SOCKS5 too, and lets true tunnel anything to port 443', async () => {
    const listed = await open(['registry.npmjs.org']);
    const hello = await capturedClientHello('REGISTRY.npmjs.org');
    const seen = recorder.received.length;
    await afterSocks(listed.socket, 'registry.npmjs.org', 443, hello, true);
    await expect.poll(() => recorder.received[seen]).toEqual(hello);
    const any = await open(true);
    const plain = net.connect(any.socket);
    plain.write(connect('registry.npmjs.org:443', 'not TLS at all'));
    await expect.poll(() => recorder.received[seen + 1]?.toString()).toBe('not TLS at all');
    plain.destroy();
    expect([...listed.refused(), ...any.refused()]).toEqual([]);
  });
});

describe('the address dialled', () => {
  it('is the one the lookup gave and the check passed, never the name: a second answer of 127.0.0.1 is never asked for (DNS rebinding)', async () => {
    const answers = new Map<string, number>();
    // Each name answers a public address once, then 127.0.0.1, as a rebinding DNS server does.
    const rebinding = new NetworkProxy({
      lookup: async (host) => {
        answers.set(host, (answers.get(host) ?? 0) + 1);
        return answers.get(host) === 1 ? ['93.184.215.14'] : ['127.0.0.1'];
      },
    });
    const dialled: string[] = [];
    const realConnect = net.connect;
    // Nothing leaves this machine: a dial out is recorded, then landed on the loopback stand-ins.
    const spy = vi.spyOn(net, 'connect').mockImplementation(((...args: Parameters<typeof net.connect>) => {
      const options: unknown = args[0];
      if (typeof options !== 'object' || options === null || 'path' in options) return realConnect(...args);
      const { host, port } = options as net.TcpNetConnectOpts;
      dialled.push(`${host}:${port}`);
      return realConnect({ host: '127.0.0.1', port: port === 443 ? recorder.port : standIn.port, allowHalfOpen: true });
    }) as typeof net.connect);
    try {
      const door = await rebinding.open(['tunnel.rebind.example', 'plain.rebind.example', 'socks.rebind.example']);
      const seen = recorder.received.length;
      const hello = await capturedClientHello('tunnel.rebind.example');
      const tunnel = net.connect(door.socket);
      tunnel.write(Buffer.concat([Buffer.from(connect('tunnel.rebind.example:443')), hello]));
      await expect.poll(() => recorder.received[seen]).toEqual(hello);
      tunnel.destroy();
      const plain = await viaHttpProxy(door, 'http://plain.rebind.example/rebound');
      expect(plain.body).toContain('stand-in: GET /rebound host=plain.rebind.example');
      const socksHello = await capturedClientHello('socks.rebind.example');
      const socks = await afterSocks(door.socket, 'socks.rebind.example', 443, socksHello, true);
      expect([...socks.subarray(2, 4)]).toEqual([5, 0]);
      await expect.poll(() => recorder.received[seen + 1]).toEqual(socksHello);
      expect(dialled).toEqual(['93.184.215.14:443', '93.184.215.14:80', '93.184.215.14:443']);
      expect([...answers.values()]).toEqual([1, 1, 1]);
    } finally {
      spy.mockRestore();
      await rebinding.dispose();
    }
  });

  it("refuses a name resolving to one of this machine's own addresses", async () => {
    const own = new NetworkProxy({
      lookup: tableLookup({ 'own.example': ['93.184.215.14'] }),
      ownAddresses: () => ['93.184.215.14'],
    });
    try {
      const door = await own.open(true);
      const text = (await exchange(door.socket, connect('own.example:8080'))).toString();
      expect(text).toMatch(
        /^HTTP\/1.1 403 .*own\.example resolves to 93\.184\.215\.14, one of this machine's own addresses/,
      );
    } finally {
      await own.dispose();
    }
  });
});

describe('the SOCKS5 proxy', () => {
  const greetingAnd = (rest: Buffer) => Buffer.concat([rest]);

  it('connects a listed domain (socks5h) and carries the bytes sent right behind the request', async () => {
    const door = await open(['registry.npmjs.org:80']);
    const got = await exchange(
      door.socket,
      greetingAnd(Buffer.concat([socksConnect('registry.npmjs.org', 80), Buffer.from('GET /socks HTTP/1.0\r\n\r\n')])),
    );
    expect([...got.subarray(0, 2)]).toEqual([5, 0]);
    expect([...got.subarray(2, 4)]).toEqual([5, 0]);
    expect(got.subarray(12).toString()).toContain('stand-in: GET /socks');
  });

  it('answers a refused domain with "connection not allowed by ruleset" and remembers the line', async () => {
    const door = await open(['registry.npmjs.org']);
    const got = await exchange(door.socket, socksConnect('example.com', 443));
    expect([...got]).toEqual([5, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(door.refusals().map((r) => r.line)).toEqual([
      "blocked by the sandbox: example.com is not on this command's network list (registry.npmjs.org)",
    ]);
  });

  it('refuses an IPv4 destination under a list, and loopback under true', async () => {
    const listed = await open(['registry.npmjs.org']);
    const v4 = Buffer.concat([b(5, 1, 0), b(5, 1, 0, 1, 127, 0, 0, 1, standIn.port >> 8, standIn.port & 0xff)]);
    expect([...(await exchange(listed.socket, v4)).subarray(2, 4)]).toEqual([5, 2]);
    const any = await open(true);
    expect([...(await exchange(any.socket, v4)).subarray(2, 4)]).toEqual([5, 2]);
    expect(any.refused()).toEqual(['127.0.0.1']);
  });

  it('answers malformed and unsupported input with a clear code or a close, and keeps serving', async () => {
    const door = await open(true);
    // No acceptable auth method: only username/password offered.
    expect([...(await exchange(door.socket, b(5, 1, 2)))]).toEqual([5, 0xff]);
    // BIND instead of CONNECT.
    expect([...(await exchange(door.socket, b(5, 1, 0, 5, 2, 0, 1, 1, 2, 3, 4, 0, 80)))]).toEqual([
      5, 0, 5, 7, 0, 1, 0, 0, 0, 0, 0, 0,
    ]);
    // Unknown address type.
    expect([...(await exchange(door.socket, b(5, 1, 0, 5, 1, 0, 7, 0, 0)))]).toEqual([
      5, 0, 5, 8, 0, 1, 0, 0, 0, 0, 0, 0,
    ]);
    // A greeting cut short: closed without an answer.
    const cut = net.connect(door.socket);
    cut.end(b(5, 3, 0));
    await new Promise((r) => cut.on('close', r));
    // A name that is not a host name.
    expect([...(await exchange(door.socket, socksConnect('a\0b c', 80)))].slice(2, 4)).toEqual([5, 2]);
    expect(door.refusals().at(-1)?.line).toMatch(/is not a valid host name/);
    // Still serving.
    const got = await exchange(
      door.socket,
      Buffer.concat([socksConnect('registry.npmjs.org', 80), Buffer.from('GET /ok HTTP/1.0\r\n\r\n')]),
    );
    expect(got.toString()).toContain('stand-in: GET /ok');
  });
});

describe('closing a door', () => {
  it('ends its open tunnels and stops listening', async () => {
    const door = await open(['registry.npmjs.org:80']);
    const held = net.connect(door.socket);
    let got = '';
    held.on('data', (c) => (got += c.toString()));
    held.write(connect('registry.npmjs.org:80', 'GET /hold HTTP/1.1\r\nHost: registry.npmjs.org\r\n\r\n'));
    const socksHeld = net.connect(door.socket);
    socksHeld.write(
      Buffer.concat([
        socksConnect('registry.npmjs.org', 80),
        Buffer.from('GET /hold HTTP/1.1\r\nHost: registry.npmjs.org\r\n\r\n'),
      ]),
    );
    socksHeld.on('data', () => undefined);
    await expect.poll(() => standIn.holding.size, { timeout: 5000 }).toBe(2);
    expect(got).toContain('first chunk');
    const closed = Promise.all([held, socksHeld].map((s) => new Promise((r) => s.on('close', r))));
    await door.close();
    await closed;
    await expect.poll(() => standIn.holding.size, { timeout: 5000 }).toBe(0);
    await expect(fs.stat(door.socket)).rejects.toThrow(/ENOENT/);
    await expect(exchange(door.socket, b(5, 1, 0))).rejects.toThrow(/ENOENT|ECONNREFUSED/);
    expect(proxy.openDoors).toBe(doors.length - 1);
  });

  it('dispose closes every door and removes the socket folder', async () => {
    const own = new NetworkProxy({ lookup: tableLookup({}) });
    const door = await own.open(true);
    const folder = door.socket.slice(0, door.socket.lastIndexOf('/'));
    await own.dispose();
    await expect(fs.stat(folder)).rejects.toThrow(/ENOENT/);
    await expect(own.open(true)).rejects.toThrow(/shut down/);
  });
});
