/**
 * The words of a refused connection: one line per refusal, the same for HTTP (a 403 body
 * and reason phrase) and SOCKS (kept for the summary, since SOCKS replies carry only a
 * code), and one line for the model after the command, built from what a door refused.
 * Every line starts "blocked by the sandbox:" like the other sandbox lines (violation.ts),
 * so the model reads it as the sandbox, not the site. What the summary suggests adding
 * to the list is only ever an entry the list accepts: never localhost, a bare name or an
 * address.
 */
import { DEFAULT_PORT, domainProblem, type NetworkPolicy, type Way } from './domain-policy.js';

export interface Refusal {
  /** The host as the command asked for it, normalized. */
  host: string;
  port: number;
  /** The list entry that would let it through, or null when none would (a local address, a bad name). */
  suggest: string | null;
  line: string;
}

const PREFIX = 'blocked by the sandbox:';
const NEVER_LOCAL = 'commands never reach this machine or its local network';

export function notListed(host: string, port: number, list: readonly string[]): Refusal {
  return {
    host,
    port,
    suggest: host,
    line: `${PREFIX} ${host} is not on this command's network list (${list.join(', ')})`,
  };
}

export function ipLiteral(host: string, port: number, list: readonly string[]): Refusal {
  return {
    host,
    port,
    suggest: null,
    line: `${PREFIX} ${host} is an IP address; this command may reach only the domains on its network list (${list.join(', ')})`,
  };
}

/** `address` is what `host` resolved to, when they differ. */
export function localAddress(host: string, port: number, address: string, kind: string): Refusal {
  const what = address === host ? `${host} is ${kind}` : `${host} resolves to ${address}, ${kind}`;
  return { host, port, suggest: null, line: `${PREFIX} ${what}; ${NEVER_LOCAL}` };
}

/** localhost and its subdomains, which name this machine whatever the resolver says. */
export function localName(host: string, port: number): Refusal {
  return { host, port, suggest: null, line: `${PREFIX} ${host} is this machine; ${NEVER_LOCAL}` };
}

/** The host is listed, but not for this port this way. */
export function portNotListed(host: string, port: number, way: Way, list: readonly string[]): Refusal {
  if (way === 'tunnel' && port === 80) {
    // A tunnel to port 80 carries whatever Host the command writes; a plain request gets the listed one.
    return {
      host,
      port,
      suggest: null,
      line: `${PREFIX} a tunnel (CONNECT or SOCKS5) to port 80 of ${host} could carry requests for any site; send plain http:// requests through the proxy (http_proxy) instead, which reach ${host} only`,
    };
  }
  // The bare domain gives each way its usual port; any other port is named with it.
  const usual = port === DEFAULT_PORT[way];
  const how = usual
    ? `${host} listed alone is reached on port 443 (https) and by plain http:// requests on port 80`
    : `a port other than 443 for https and 80 for plain http:// is listed with its domain, as in ${host}:${port}`;
  return {
    host,
    port,
    suggest: usual ? host : `${host}:${port}`,
    line: `${PREFIX} port ${port} of ${host} is not on this command's network list (${list.join(', ')}); ${how}`,
  };
}

/** A tunnel to a listed domain's port 443 whose first bytes were not TLS for that domain. */
export function serverNameRefused(host: string, port: number, problem: string): Refusal {
  return {
    host,
    port,
    suggest: null,
    line: `${PREFIX} the tunnel to ${host}:${port} ${problem}; a tunnel to port 443 of a listed domain carries TLS for that domain only`,
  };
}

export function badDestination(host: string, port: number, why: string): Refusal {
  return { host, port, suggest: null, line: `${PREFIX} ${why}` };
}

/**
 * One line for the model about everything a command was refused, or null. The first
 * refusal in full, then the other hosts by name, and what would help.
 */
export function refusalSummary(refusals: readonly Refusal[], policy: NetworkPolicy): string | null {
  const first = refusals[0];
  if (!first) return null;
  const others = [...new Set(refusals.slice(1).map((r) => r.host))].filter((h) => h !== first.host);
  const more = others.length > 0 ? `; also refused: ${others.join(', ')}` : '';
  // Only what the list would take: suggesting an entry the card then refuses helps nobody.
  const entries = refusals.map((r) => r.suggest).filter((e): e is string => e !== null && domainProblem(e) === null);
  const listable = [...new Set(entries)];
  const hint =
    policy !== true && listable.length > 0
      ? ` (run it again with ${listable.join(', ')} added to network if the command needs ${listable.length > 1 ? 'them' : 'it'})`
      : '';
  return `${first.line}${more}${hint}`;
}
