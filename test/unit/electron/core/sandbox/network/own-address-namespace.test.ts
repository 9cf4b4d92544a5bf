/**
 * "Never this machine's own services", through the proxy as a command reaches it, in a
 * network namespace this test makes (bubblewrap, with the right to set its addresses):
 * there the machine has the public-looking 93.184.215.14 on an interface, and a service
 * bound to 0.0.0.0 answers on it. Nothing is sent outside the namespace.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BWRAP = '/usr/bin/bwrap';
const NAMESPACE = [
  '--unshare-user',
  '--unshare-net',
  '--cap-add',
  'CAP_NET_ADMIN',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
];
const SET_UP = 'ip link set lo up && ip addr add 93.184.215.14/32 dev lo && exec "$@"';
const canRun = spawnSync(BWRAP, [...NAMESPACE, '--', 'sh', '-c', SET_UP, 'sh', 'true']).status === 0;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../../../..');

let sockets: string;
beforeAll(async () => {
  sockets = await fs.mkdtemp('/var/tmp/gatehouse-own-address-');
});
afterAll(async () => {
  await fs.rm(sockets, { recursive: true, force: true });
});

describe.skipIf(!canRun)("this machine's own address, in a namespace of the test's own", () => {
  it('is reached by a service bound to 0.0.0.0, and refused by the proxy by name, by address and in NAT64 form', () => {
    const probe = path.join(here, 'own-address-probe.ts');
    const ran = spawnSync(
      BWRAP,
      [
        ...NAMESPACE,
        '--bind',
        sockets,
        sockets,
        '--chdir',
        root,
        '--',
        'sh',
        '-c',
        SET_UP,
        'sh',
        process.execPath,
        '--import',
        'tsx',
        probe,
        sockets,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(ran.stderr).toBe('');
    const seen = JSON.parse(ran.stdout) as Record<string, string | string[]>;
    // The address is a way in: the service answers there.
    expect(seen.direct).toBe('the service on 0.0.0.0\n');
    expect(seen.viaName).toMatch(
      /^HTTP\/1.1 403 .*own\.example resolves to 93\.184\.215\.14, one of this machine's own addresses/,
    );
    expect(seen.viaAddress).toMatch(/^HTTP\/1.1 403 .*93\.184\.215\.14 is one of this machine's own addresses/);
    expect(seen.viaNat64).toMatch(/^HTTP\/1.1 403 .*a NAT64 form of 93\.184\.215\.14, one of this machine's own/);
    // Only the direct connection reached the service.
    expect(seen.served).toEqual(['93.184.215.14']);
  });
});
