/**
 * Waiting for a tunnel's ClientHello, on a real socket pair over loopback: what it passes
 * on, and when it gives up. Timers are faked where the wait's own limit is the point.
 */
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  awaitClientHello,
  type FirstBytes,
} from '../../../../../../electron/core/sandbox/network/server-name-check.js';
import { capturedClientHello } from './client-hellos.js';

const open: net.Socket[] = [];
let server: net.Server | undefined;

afterEach(async () => {
  vi.useRealTimers();
  for (const s of open.splice(0)) s.destroy();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A connected pair: `client` writes what the proxy's `socket` reads. */
async function pair(): Promise<{ client: net.Socket; socket: net.Socket }> {
  const accepted = new Promise<net.Socket>((resolve) => {
    server = net.createServer((s) => resolve(s));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const client = net.connect((server?.address() as net.AddressInfo).port, '127.0.0.1');
  const socket = await accepted;
  open.push(client, socket);
  return { client, socket };
}

describe('awaitClientHello', () => {
  it('settles on bytes that came with the request, and holds what comes next until the tunnel reads it', async () => {
    const { client, socket } = await pair();
    const hello = await capturedClientHello('pypi.org');
    const first = await awaitClientHello(socket, hello, 'pypi.org');
    expect(first).toEqual({ ok: true, bytes: hello });
    // Bytes that arrive before the tunnel's pipe is set up wait in the paused socket, not lost.
    client.write('after');
    await expect.poll(() => socket.bytesRead).toBe(5);
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString()));
    socket.resume();
    await expect.poll(() => got).toBe('after');
  });

  it('waits for a ClientHello sent a few bytes at a time, and passes on all it read', async () => {
    const { client, socket } = await pair();
    const hello = await capturedClientHello('pypi.org');
    const waiting = awaitClientHello(socket, hello.subarray(0, 3), 'pypi.org');
    for (let at = 3; at < hello.length; at += 200) {
      client.write(hello.subarray(at, at + 200));
      await new Promise((r) => setImmediate(r));
    }
    expect(await waiting).toEqual({ ok: true, bytes: hello });
  });

  it('says which site a ClientHello for another site named', async () => {
    const { socket } = await pair();
    const hello = await capturedClientHello('fronted.example');
    expect(await awaitClientHello(socket, hello, 'pypi.org')).toEqual({
      ok: false,
      problem: 'sent a TLS ClientHello for another site (its SNI is "fronted.example")',
    });
  });

  it('gives up quietly when the client goes away mid-ClientHello', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, socket } = await pair();
    const hello = await capturedClientHello('pypi.org');
    const waiting = awaitClientHello(socket, hello.subarray(0, 100), 'pypi.org');
    client.destroy();
    expect(await waiting).toEqual<FirstBytes>({ ok: false, problem: null });
  });

  it('gives up on a client that stops halfway, after its time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { socket } = await pair();
    const hello = await capturedClientHello('pypi.org');
    let settled: FirstBytes | undefined;
    void awaitClientHello(socket, hello.subarray(0, 100), 'pypi.org').then((r) => (settled = r));
    await vi.advanceTimersByTimeAsync(9_000);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(settled).toEqual({ ok: false, problem: null });
  });
});
