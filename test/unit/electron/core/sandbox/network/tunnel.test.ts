/**
 * The one place the proxy dials out takes an address, never a name: a name would be
 * looked up again by net.connect, and the second answer is the attacker's (DNS rebinding).
 */
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectTo } from '../../../../../../electron/core/sandbox/network/tunnel.js';

afterEach(() => vi.restoreAllMocks());

describe('connectTo', () => {
  it('refuses a name without dialling anything', () => {
    const dialled = vi.spyOn(net, 'connect');
    for (const host of ['localhost', 'registry.npmjs.org', '']) {
      expect(() => connectTo({ host, port: 443 }), host).toThrow(/the proxy dials addresses only/);
    }
    expect(dialled).not.toHaveBeenCalled();
  });

  it('dials the address it is given, as given', async () => {
    const server = net.createServer((s) => s.end('here\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dialled = vi.spyOn(net, 'connect');
    try {
      const socket = connectTo({ host: '127.0.0.1', port: (server.address() as net.AddressInfo).port });
      const got = await new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (c: Buffer) => (text += c.toString()));
        // Half-open: the far end's end is heard, and this side stays open until it ends too.
        socket.on('end', () => {
          socket.end();
          resolve(text);
        });
      });
      expect(got).toBe('here\n');
      expect(dialled).toHaveBeenCalledWith(expect.objectContaining({ host: '127.0.0.1' }));
    } finally {
      server.close();
    }
  });
});
