/**
 * Addresses a confined command never reaches through the proxy, whatever its policy: this
 * machine (loopback, and 0.0.0.0, which Linux connects to loopback) and the local
 * network behind it (private, link-local, carrier-grade NAT as Tailscale uses, unique
 * local IPv6), plus multicast and reserved space. The proxy runs on the host, so without
 * this a domain that resolves to 127.0.0.1 would open the host's loopback, which the
 * network namespace exists to keep out of reach. The check is on the address actually
 * dialled, after the lookup, so no DNS answer can route around it.
 */
import net from 'node:net';

interface Range {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
  /** Words for the refusal: "a loopback address". */
  kind: string;
}

const RANGES: readonly Range[] = [
  { address: '0.0.0.0', prefix: 8, family: 'ipv4', kind: 'an unspecified ("this host") address' },
  { address: '127.0.0.0', prefix: 8, family: 'ipv4', kind: 'a loopback address (this machine)' },
  { address: '10.0.0.0', prefix: 8, family: 'ipv4', kind: 'a private-network address' },
  { address: '172.16.0.0', prefix: 12, family: 'ipv4', kind: 'a private-network address' },
  { address: '192.168.0.0', prefix: 16, family: 'ipv4', kind: 'a private-network address' },
  { address: '100.64.0.0', prefix: 10, family: 'ipv4', kind: 'a carrier-grade NAT (shared) address' },
  { address: '169.254.0.0', prefix: 16, family: 'ipv4', kind: 'a link-local address (cloud metadata lives here)' },
  // IETF protocol assignments, documentation and benchmarking: nothing public answers there.
  { address: '192.0.0.0', prefix: 24, family: 'ipv4', kind: 'a reserved address' },
  { address: '198.18.0.0', prefix: 15, family: 'ipv4', kind: 'a reserved address' },
  { address: '224.0.0.0', prefix: 4, family: 'ipv4', kind: 'a multicast address' },
  { address: '240.0.0.0', prefix: 4, family: 'ipv4', kind: 'a reserved address' },
  { address: '::', prefix: 128, family: 'ipv6', kind: 'an unspecified ("this host") address' },
  { address: '::1', prefix: 128, family: 'ipv6', kind: 'a loopback address (this machine)' },
  // The deprecated IPv4-compatible form (::a.b.c.d) reaches nothing public.
  { address: '::', prefix: 96, family: 'ipv6', kind: 'a reserved address' },
  { address: 'fc00::', prefix: 7, family: 'ipv6', kind: 'a unique-local (private) address' },
  { address: 'fe80::', prefix: 10, family: 'ipv6', kind: 'a link-local address' },
  { address: 'ff00::', prefix: 8, family: 'ipv6', kind: 'a multicast address' },
];

/** One BlockList per kind, built once; an IPv4 rule also matches the IPv4-mapped IPv6 form (::ffff:127.0.0.1). */
const LISTS: readonly { kind: string; list: net.BlockList }[] = (() => {
  const byKind = new Map<string, net.BlockList>();
  for (const r of RANGES) {
    const list = byKind.get(r.kind) ?? new net.BlockList();
    list.addSubnet(r.address, r.prefix, r.family);
    byKind.set(r.kind, list);
  }
  return [...byKind].map(([kind, list]) => ({ kind, list }));
})();

/** Why `ip` is out of reach ("a loopback address (this machine)"), or null for a public address. */
export function localAddressKind(ip: string): string | null {
  const family = net.isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return LISTS.find(({ list }) => list.check(ip, type))?.kind ?? null;
}
