/**
 * This machine's own addresses, from its network interfaces. A service bound to 0.0.0.0
 * answers on every one of them, a public address included, so the fixed ranges of
 * local-addresses.ts are not enough to keep the machine's own services out of reach.
 *
 * They are read again for every decision, not cached: os.networkInterfaces() took about
 * 23 µs here (a getifaddrs call), next to a DNS lookup's milliseconds, and an address
 * that appears (a VPN coming up, a new DHCP lease) is then refused from the very next
 * connection, with no window and no watcher to keep.
 */
import os from 'node:os';

/** The addresses to refuse as this machine's own, read when asked. */
export type OwnAddresses = () => readonly string[];

export const interfaceAddresses: OwnAddresses = () =>
  Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
