/**
 * The hosts an external agent's process may reach through the proxy (SPEC §14), as the
 * person edits them in Settings → Agents: domain names only, as the sandbox's network
 * policy reads them (a leading `*.` for subdomains, nothing else wild), never an IP address
 * or this machine, and no ports: an agent reaches its model over HTTPS.
 */
import net from 'node:net';
import { domainProblem, MAX_DOMAINS, normalizeDomainList, normalizeHost } from '../sandbox/network/domain-policy.js';

/** What is wrong with a list, in words for the person; null when it can be saved. */
export function agentDomainsProblem(list: unknown): string | null {
  if (!Array.isArray(list) || list.some((d) => typeof d !== 'string'))
    return 'the domains must be a list of host names';
  if (list.length === 0) return 'an agent needs at least one domain: its model’s host, e.g. api.anthropic.com';
  if (list.length > MAX_DOMAINS) return `at most ${MAX_DOMAINS} domains (got ${list.length})`;
  for (const entry of list as string[]) {
    const problem = entryProblem(entry);
    if (problem) return problem;
  }
  return null;
}

/** A valid list as the proxy compares it: lower case, no trailing dot, each once. */
export function normalizeAgentDomains(list: readonly string[]): string[] {
  return normalizeDomainList(list);
}

function entryProblem(entry: string): string | null {
  const shown = JSON.stringify(entry);
  const host = normalizeHost(entry);
  // The sandbox's own words speak to the model about commands; these speak to the person.
  if (host === '*') return `${shown} would let the agent reach any host: name its model’s host instead`;
  if (net.isIP(host)) return `${shown} is an IP address: name the host by its domain`;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${shown} is this machine: an agent never reaches it`;
  if (/:\d*$/.test(host)) return `${shown} has a port: write the host name alone (agents use HTTPS)`;
  return domainProblem(entry);
}
