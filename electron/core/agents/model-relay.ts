/**
 * A model endpoint on this machine's loopback, reached from inside an agent's jail. The
 * jail has a network namespace of its own, and the proxy rightly refuses this machine's
 * own addresses, so a local model server (a person's, or a test's fake) gets a relay: a
 * Unix socket in a private 0700 folder of the app's that passes each connection to
 * 127.0.0.1:<port>, forwarded into the jail like the gate's socket. Only that one port,
 * named on the start card.
 */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface ModelRelay {
  /** The relay's host socket, for the jail's forward. */
  socket: string;
  close(): Promise<void>;
}

/**
 * Starts a relay to 127.0.0.1:<port>. The folder is made under /tmp (never inside a
 * jail's sight: each has a private /tmp) unless a test names another.
 */
export async function startModelRelay(port: number, parent = '/tmp'): Promise<ModelRelay> {
  const folder = await fs.mkdtemp(path.join(parent, 'gatehouse-model-'));
  await fs.chmod(folder, 0o700);
  const socket = path.join(folder, 'model.sock');
  const open = new Set<net.Socket>();
  const server = net.createServer((inside) => {
    const outside = net.connect({ host: '127.0.0.1', port });
    for (const s of [inside, outside]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      // A reset on either side ends both; nothing is thrown at the app.
      s.on('error', () => {
        inside.destroy();
        outside.destroy();
      });
    }
    inside.pipe(outside).pipe(inside);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  return {
    socket,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(folder, { recursive: true, force: true });
    },
  };
}
