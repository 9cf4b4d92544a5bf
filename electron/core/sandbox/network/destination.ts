/**
 * The one decision both proxies make for each connection: may this command reach
 * host:port this way, and if so, which address exactly is dialled. The policy is checked
 * on the name the command asked for (and the port, for the way it goes); the
 * local-address check on every address one lookup gave, and one of those same addresses
 * is dialled (tunnel.ts never takes a name), so a DNS answer cannot change between the
 * check and the connection (rebinding).
 */
import { promises as dns } from 'node:dns';
import net from 'node:net';
import { isHostName, normalizeHost, policyAllows, portAllowed, type NetworkPolicy, type Way } from './domain-policy.js';
import { localAddressKind } from './local-addresses.js';
import { interfaceAddresses, type OwnAddresses } from './own-addresses.js';
import {
  badDestination,
  ipLiteral,
  localAddress,
  localName,
  notListed,
  portNotListed,
  type Refusal,
} from './refusal.js';

/** Where a connection really goes: `host` is always an IP address. */
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

/**
 * What a tunnel must carry: `tls-for-host`, a TLS ClientHello naming the host asked for
 * (server-name-check.ts); `anything`, whatever the command speaks.
 */
export type Carries = 'tls-for-host' | 'anything';

export type Decision =
  | { kind: 'go'; route: Route; carries: Carries }
  | { kind: 'refused'; refusal: Refusal }
  /** Allowed, but there is nowhere to go (the name does not resolve): not the sandbox's doing. */
  | { kind: 'unreachable'; message: string };

export interface DestinationRules {
  policy: NetworkPolicy;
  lookup: Lookup;
  redirect?: Redirect;
  /** This machine's own addresses; default its interfaces', read for each decision. */
  ownAddresses?: OwnAddresses;
}

export const systemLookup: Lookup = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The port tunnels to a listed domain reach by default, and whose traffic must be TLS for that domain. */
const HTTPS_PORT = 443;

export async function decide(rules: DestinationRules, rawHost: string, port: number, way: Way): Promise<Decision> {
  const host = normalizeHost(rawHost);
  const refusal = policyRefusal(rules.policy, host, rawHost, port, way);
  if (refusal) return { kind: 'refused', refusal };
  // Under a list, a tunnel to port 443 is a listed domain's https: it may not carry another site's TLS.
  const carries: Carries =
    rules.policy !== true && way === 'tunnel' && port === HTTPS_PORT ? 'tls-for-host' : 'anything';
  const redirected = rules.redirect?.(host, port);
  if (redirected) return { kind: 'go', route: redirected, carries };
  const literal = net.isIP(host) !== 0;
  const addresses = literal ? [host] : await rules.lookup(host).catch(() => [] as string[]);
  if (addresses.length === 0) return { kind: 'unreachable', message: `could not resolve ${host}` };
  const own = (rules.ownAddresses ?? interfaceAddresses)();
  // Every address is checked, and only a checked one is dialled; a name whose every address is local is refused.
  const usable = addresses.find((a) => localAddressKind(a, own) === null);
  if (usable) return { kind: 'go', route: { host: usable, port }, carries };
  const first = addresses[0] as string;
  const kind = localAddressKind(first, own) ?? 'not a public address';
  return { kind: 'refused', refusal: localAddress(host, port, first, kind) };
}

/** Why the policy refuses host:port this way, before any lookup; null when it allows it. */
function policyRefusal(policy: NetworkPolicy, host: string, rawHost: string, port: number, way: Way): Refusal | null {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return badDestination(host, port, `${port} is not a valid port (asked for ${host})`);
  }
  const literal = net.isIP(host) !== 0;
  if (literal) return policy === true ? null : ipLiteral(host, port, policy);
  if (!isHostName(host)) {
    return badDestination(host, port, `${JSON.stringify(rawHost.slice(0, 80))} is not a valid host name`);
  }
  // RFC 6761: localhost and its subdomains are this machine, whatever a resolver says.
  if (host === 'localhost' || host.endsWith('.localhost')) return localName(host, port);
  if (policy === true) return null;
  if (!policyAllows(policy, host)) return notListed(host, port, policy);
  return portAllowed(policy, host, port, way) ? null : portNotListed(host, port, way, policy);
}
