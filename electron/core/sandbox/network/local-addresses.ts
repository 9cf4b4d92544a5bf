/**
 * Addresses a confined command never reaches through the proxy, whatever its policy: this
 * machine (loopback, 0.0.0.0, which Linux connects to loopback, and every address of its
 * own interfaces) and the local network behind it (private, link-local, carrier-grade NAT
 * as Tailscale uses, unique local IPv6), plus multicast, documentation and reserved space.
 * An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4, Teredo) is judged by the
 * IPv4 address it carries, and any other IPv6 address outside the global unicast range
 * (2000::/3) is refused: an allow-list of the public space rather than a list of the
 * private one. The proxy runs on the host, so without this a domain that resolves to
 * 127.0.0.1 would open the host's loopback, which the network namespace exists to keep
 * out of reach. The check is on the address actually dialled, after the lookup, so no
 * DNS answer can route around it.
 */
import net from 'node:net';
import { embeddedIPv4 } from './embedded-ipv4.js';

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
  { address: '192.0.2.0', prefix: 24, family: 'ipv4', kind: 'a documentation address' },
  { address: '198.51.100.0', prefix: 24, family: 'ipv4', kind: 'a documentation address' },
  { address: '203.0.113.0', prefix: 24, family: 'ipv4', kind: 'a documentation address' },
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
  { address: '2001:db8::', prefix: 32, family: 'ipv6', kind: 'a documentation address' },
  { address: '3fff::', prefix: 20, family: 'ipv6', kind: 'a documentation address' },
  // RFC 8215: NAT64 prefixes for one network's own use, with the IPv4 address anywhere inside.
  { address: '64:ff9b:1::', prefix: 48, family: 'ipv6', kind: 'a local-use NAT64 address' },
];

/** Every public IPv6 address is in 2000::/3; the space outside it is reserved, local or special. */
const GLOBAL_UNICAST = new net.BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
const NOT_GLOBAL = 'not a public IPv6 address (outside 2000::/3, the global unicast range)';
const OWN = "one of this machine's own addresses";

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

/**
 * Why `ip` is out of reach ("a loopback address (this machine)"), or null for a public
 * address. `own` is this machine's own addresses (own-addresses.ts), refused as such.
 */
export function localAddressKind(ip: string, own: readonly string[] = []): string | null {
  const family = net.isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const kind = LISTS.find(({ list }) => list.check(ip, type))?.kind ?? (ownList(own).check(ip, type) ? OWN : null);
  if (kind || type === 'ipv4') return kind;
  const carried = embeddedIPv4(ip);
  for (const { form, address } of carried) {
    const inner = localAddressKind(address, own);
    if (inner) return `${form} of ${address}, ${inner}`;
  }
  // A mapped or NAT64 form of a public IPv4 address is that public address; nothing else outside 2000::/3 is.
  return carried.length > 0 || GLOBAL_UNICAST.check(ip, 'ipv6') ? null : NOT_GLOBAL;
}

function ownList(own: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const address of own) {
    const family = net.isIP(address);
    if (family !== 0) list.addAddress(address.split('%')[0] as string, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}
