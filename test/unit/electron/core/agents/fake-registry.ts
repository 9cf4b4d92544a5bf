/**
 * An npm registry on loopback serving packed tarballs, so an install's progress can be
 * watched as npm fetches from a registry, without leaving this machine.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRegistry {
  url: string;
  close(): Promise<void>;
}

/** Serves each tarball (`name` → its path, one version each) as npm's packument and tarball routes. */
export async function startFakeRegistry(
  packages: Array<{ name: string; version: string; tarball: string; dependencies?: Record<string, string> }>,
): Promise<FakeRegistry> {
  const bytes = new Map(await Promise.all(packages.map(async (p) => [p.name, await fs.readFile(p.tarball)] as const)));
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    const pkg = packages.find((p) => url === `/${p.name}` || url === `/${p.name}/-/${p.name}-${p.version}.tgz`);
    if (!pkg) return void res.writeHead(404).end('{}');
    const data = bytes.get(pkg.name) as Buffer;
    if (url.endsWith('.tgz')) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data);
    const { port } = server.address() as AddressInfo;
    const manifest = {
      name: pkg.name,
      version: pkg.version,
      dependencies: pkg.dependencies ?? {},
      dist: {
        tarball: `http://127.0.0.1:${port}/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`,
        shasum: createHash('sha1').update(data).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
      },
    };
    const packument = { name: pkg.name, 'dist-tags': { latest: pkg.version }, versions: { [pkg.version]: manifest } };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
