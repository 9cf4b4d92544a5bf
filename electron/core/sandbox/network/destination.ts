/**
 * The one decision both proxies make for each connection: may this command reach
 * host:port, and if so, which address exactly is dialled. The policy is checked on the
 * name the command asked for; the local-address check on the address the lookup gave,
 * and that same address is dialled, so a DNS answer cannot change between the check and
 * the connection (rebinding).
 */
import { promises as dns } from 'node:dns';
import net from 'node:net';
import { isHostName, normalizeHost, policyAllows, type NetworkPolicy } from './domain-policy.js';
import { localAddressKind } from './local-addresses.js';
import { badDestination, ipLiteral, localAddress, notListed, type Refusal } from './refusal.js';

/** Where a connection really goes. */
export interface Route {
  host: string;
  port: number;
}

/** A host's addresses, in the resolver's order. */
export type Lookup = (host: string) => Promise<string[]>;

/**
 * Test hook: sends an allowed destination somewhere else (a loopback test server),
 * skipping the lookup and the local-address check. Undefined: the usual way.
 */
export type Redirect = (host: string, port: number) => Route | undefined;

export type Decision =
  | { kind: 'go'; route: Route }
  | { kind: 'refused'; refusal: Refusal }
  /** Allowed, but there is nowhere to go (the name does not resolve): not the sandbox's doing. */
  | { kind: 'unreachable'; message: string };

export interface DestinationRules {
  policy: NetworkPolicy;
  lookup: Lookup;
  redirect?: Redirect;
}

export const systemLookup: Lookup = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export async function decide(rules: DestinationRules, rawHost: string, port: number): Promise<Decision> {
  const host = normalizeHost(rawHost);
  const refused = (refusal: Refusal): Decision => ({ kind: 'refused', refusal });
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return refused(badDestination(host, port, `${port} is not a valid port (asked for ${host})`));
  }
  const literal = net.isIP(host) !== 0;
  if (literal && rules.policy !== true) return refused(ipLiteral(host, port, rules.policy));
  if (!literal && !isHostName(host)) {
    return refused(badDestination(host, port, `${JSON.stringify(rawHost.slice(0, 80))} is not a valid host name`));
  }
  if (!literal && !policyAllows(rules.policy, host)) return refused(notListed(host, port, rules.policy as string[]));
  const redirected = rules.redirect?.(host, port);
  if (redirected) return { kind: 'go', route: redirected };
  const addresses = literal ? [host] : await rules.lookup(host).catch(() => [] as string[]);
  if (addresses.length === 0) return { kind: 'unreachable', message: `could not resolve ${host}` };
  // Any public address will do; a name whose every address is local is refused.
  const usable = addresses.find((a) => localAddressKind(a) === null);
  if (usable) return { kind: 'go', route: { host: usable, port } };
  const first = addresses[0] as string;
  return refused(localAddress(host, port, first, localAddressKind(first) ?? 'not a public address'));
}
