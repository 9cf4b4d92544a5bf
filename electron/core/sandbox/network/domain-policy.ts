/**
 * Which domains one confined command may reach (SPEC §9, `network`): `true` for any
 * domain, or a list the card shows word for word. A listed name matches its exact host,
 * case-insensitively, with a trailing dot ignored; `*.example.com` matches the subdomains
 * of example.com and not example.com itself, because CDNs and artifact stores hand out
 * hosts nobody can list in advance (`*.githubusercontent.com`), and the apex is one more
 * line when it is wanted. The list holds domains only: an IP address needs `true`.
 *
 * The validation is exported for the run tool's schema, so a bad list is refused before
 * a card is shown, in words the model can act on.
 */
import net from 'node:net';

/** `true`: any domain. A list: only those (see the matching rules above). */
export type NetworkPolicy = true | readonly string[];

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

/** What is wrong with one list entry, in words for the model; null when it is a domain. */
export function domainProblem(entry: string): string | null {
  const shown = JSON.stringify(entry);
  if (entry.trim() === '') return 'an entry is empty: write a domain such as registry.npmjs.org';
  if (entry.trim() === '*') return `${shown} is not a domain: use network: true to allow any domain`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return `${shown} is a URL: write the host name alone, without a scheme or path (${hostOf(entry) ?? 'e.g. registry.npmjs.org'})`;
  }
  if (entry.includes('/')) return `${shown} has a path: write the host name alone (${entry.split('/')[0]})`;
  const name = normalizeHost(entry);
  if (net.isIP(name)) {
    return `${shown} is an IP address: a network list holds domains only (network: true is needed to reach an IP address)`;
  }
  if (/:\d*$/.test(entry)) {
    return `${shown} has a port: write the domain alone (${entry.replace(/:\d*$/, '')}); every port of a listed domain is allowed`;
  }
  if (/[^\x21-\x7e]/.test(entry)) {
    return `${shown} has spaces or non-ASCII characters: write an international domain in its xn-- (punycode) form`;
  }
  const wildcard = name.startsWith('*.');
  const base = wildcard ? name.slice(2) : name;
  if (base.includes('*')) return `${shown}: a wildcard is allowed only as the whole first label, as in *.example.com`;
  if (!isHostName(base) || /^\d+$/.test(base.split('.').at(-1) ?? '')) {
    return `${shown} is not a valid domain name (dot-separated labels of letters, digits and inner hyphens)`;
  }
  if (wildcard && !base.includes('.')) {
    return `${shown} is too broad: a wildcard needs a domain of at least two labels after "*.", e.g. *.githubusercontent.com`;
  }
  if (!base.includes('.')) return `${shown} is not a full domain name: write it with its dots, e.g. registry.npmjs.org`;
  return null;
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

/** A valid list in the spelling the proxy compares: normalized, each once, in the given order. */
export function normalizeDomainList(list: readonly string[]): string[] {
  return [...new Set(list.map(normalizeHost))];
}

/** Whether the policy names `host` (a normalized host name, not an IP address). */
export function policyAllows(policy: NetworkPolicy, host: string): boolean {
  if (policy === true) return true;
  const name = normalizeHost(host);
  return policy.some((entry) => {
    const e = normalizeHost(entry);
    return e.startsWith('*.') ? name.endsWith(e.slice(1)) && name.length > e.length - 1 : name === e;
  });
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
