/**
 * Which domains one confined command may reach (SPEC §9, `network`): `true` for any
 * domain, or a list the card shows word for word. A listed name matches its exact host,
 * case-insensitively, with a trailing dot ignored; `*.example.com` matches the subdomains
 * of example.com and not example.com itself, because CDNs and artifact stores hand out
 * hosts nobody can list in advance (`*.githubusercontent.com`), and the apex is one more
 * line when it is wanted. The list holds domains only: an IP address needs `true`.
 *
 * An entry names ports too. A bare domain is reached on port 443 through a tunnel
 * (CONNECT or SOCKS5, checked to carry TLS for that domain) and on port 80 by plain
 * http:// requests, whose Host the proxy sets; `example.com:8443` names that port alone,
 * reached either way, with whatever the command speaks there (list `example.com` too for
 * 443 and 80). A tunnel to any other port could carry any site's traffic to the listed
 * host's address (a CDN serves many sites from one address: domain fronting), so it is
 * refused unless the card names the port.
 *
 * The validation is exported for the run tool's schema, so a bad list is refused before
 * a card is shown, in words the model can act on.
 */
import net from 'node:net';

/** `true`: any domain. A list: only those (see the matching rules above). */
export type NetworkPolicy = true | readonly string[];

/** How a connection goes out: a byte tunnel (CONNECT, SOCKS5), or a plain http:// request the proxy passes on. */
export type Way = 'tunnel' | 'forward';

/** The port a bare domain entry gives each way. */
export const DEFAULT_PORT: Readonly<Record<Way, number>> = { tunnel: 443, forward: 80 };

/** More than this is a list nobody reads on a card; `true` says it more honestly. */
export const MAX_DOMAINS = 64;

/** RFC 1035 limits: a label of 1-63 letters, digits and inner hyphens; 253 characters in all. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_NAME = 253;

/** Lower case, no trailing dot, IPv6 brackets removed: the one spelling policies compare. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** Whether `host` (already normalized) is a syntactically valid DNS name, single labels included. */
export function isHostName(host: string): boolean {
  return host.length > 0 && host.length <= MAX_NAME && host.split('.').every((label) => LABEL.test(label));
}

/** What is wrong with one list entry, in words for the model; null when it is a domain, with a port or not. */
export function domainProblem(entry: string): string | null {
  const shown = JSON.stringify(entry);
  if (entry.trim() === '') return 'an entry is empty: write a domain such as registry.npmjs.org';
  if (entry.trim() === '*') return `${shown} is not a domain: use network: true to allow any domain`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return `${shown} is a URL: write the host name alone, without a scheme or path (${hostOf(entry) ?? 'e.g. registry.npmjs.org'})`;
  }
  if (entry.includes('/')) return `${shown} has a path: write the host name alone (${entry.split('/')[0]})`;
  const { name, port } = splitPort(entry);
  if (net.isIP(normalizeHost(name))) {
    return `${shown} is an IP address: a network list holds domains only (network: true is needed to reach an IP address)`;
  }
  if (port !== null && !/^[1-9]\d{0,4}$/.test(port)) {
    return `${shown} has a port that is not a number from 1 to 65535: write a domain, or a domain and its port as in example.com:8443`;
  }
  if (port !== null && Number(port) > 65535) return `${shown}: a port is at most 65535`;
  return nameProblem(shown, normalizeHost(name));
}

function nameProblem(shown: string, name: string): string | null {
  if (/[^\x21-\x7e]/.test(name)) {
    return `${shown} has spaces or non-ASCII characters: write an international domain in its xn-- (punycode) form`;
  }
  const wildcard = name.startsWith('*.');
  const base = wildcard ? name.slice(2) : name;
  if (base.includes('*')) return `${shown}: a wildcard is allowed only as the whole first label, as in *.example.com`;
  if (base === 'localhost' || base.endsWith('.localhost')) {
    return `${shown} is this machine: commands never reach this machine's own services, whatever the list says`;
  }
  if (!isHostName(base) || /^\d+$/.test(base.split('.').at(-1) ?? '')) {
    return `${shown} is not a valid domain name (dot-separated labels of letters, digits and inner hyphens)`;
  }
  if (wildcard && !base.includes('.')) {
    return `${shown} is too broad: a wildcard needs a domain of at least two labels after "*.", e.g. *.githubusercontent.com`;
  }
  if (!base.includes('.')) return `${shown} is not a full domain name: write it with its dots, e.g. registry.npmjs.org`;
  return null;
}

/**
 * An entry's name and port as written: "example.com:8443", "[::1]:80". Only one colon
 * makes a port; an unbracketed IPv6 address has several and stays whole.
 */
function splitPort(entry: string): { name: string; port: string | null } {
  const bracketed = /^(\[[^\]]*\]):(.*)$/.exec(entry);
  if (bracketed) return { name: bracketed[1] as string, port: bracketed[2] as string };
  const parts = entry.split(':');
  return parts.length === 2 ? { name: parts[0] as string, port: parts[1] as string } : { name: entry, port: null };
}

/** What is wrong with a whole list (the first problem found), or null. */
export function domainListProblem(list: readonly string[]): string | null {
  if (list.length === 0) return 'an empty list allows nothing: leave network out for no network, or name the domains';
  if (list.length > MAX_DOMAINS) {
    return `at most ${MAX_DOMAINS} domains (got ${list.length}); use network: true if the command needs any domain`;
  }
  for (const entry of list) {
    const problem = domainProblem(entry);
    if (problem) return problem;
  }
  return null;
}

/** A valid list in the spelling the proxy compares: normalized ("example.com:8443"), each once, in the given order. */
export function normalizeDomainList(list: readonly string[]): string[] {
  return [
    ...new Set(
      list.map((entry) => {
        const { name, port } = splitPort(entry);
        return port === null ? normalizeHost(name) : `${normalizeHost(name)}:${Number(port)}`;
      }),
    ),
  ];
}

/** Whether the policy names `host` (a normalized host name, not an IP address), on any port. */
export function policyAllows(policy: NetworkPolicy, host: string): boolean {
  return policy === true || matching(policy, host).length > 0;
}

/**
 * Whether the policy lets `host` be reached on `port` this way: any port with `true`;
 * else an entry for the host names that port, or is bare and the port is the way's default.
 */
export function portAllowed(policy: NetworkPolicy, host: string, port: number, way: Way): boolean {
  if (policy === true) return true;
  return matching(policy, host).some((entry) => (entry.port ?? DEFAULT_PORT[way]) === port);
}

/** The list's entries whose name matches `host`, each with its port (null: a bare domain). */
function matching(list: readonly string[], host: string): { port: number | null }[] {
  const name = normalizeHost(host);
  return list
    .map((entry) => splitPort(entry))
    .filter((entry) => {
      const e = normalizeHost(entry.name);
      return e.startsWith('*.') ? name.endsWith(e.slice(1)) && name.length > e.length - 1 : name === e;
    })
    .map((entry) => ({ port: entry.port === null ? null : Number(entry.port) }));
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
