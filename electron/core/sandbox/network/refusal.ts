/**
 * The words of a refused connection: one line per refusal, the same for HTTP (a 403 body
 * and reason phrase) and SOCKS (kept for the summary, since SOCKS replies carry only a
 * code), and one line for the model after the command, built from what a door refused.
 * Every line starts "blocked by the sandbox:" like the other sandbox lines (violation.ts),
 * so the model reads it as the sandbox, not the site.
 */
import type { NetworkPolicy } from './domain-policy.js';

export interface Refusal {
  /** The host as the command asked for it, normalized. */
  host: string;
  port: number;
  /** Whether adding the host to the list would let it through (not so for a local address). */
  listable: boolean;
  line: string;
}

const PREFIX = 'blocked by the sandbox:';

export function notListed(host: string, port: number, list: readonly string[]): Refusal {
  return {
    host,
    port,
    listable: true,
    line: `${PREFIX} ${host} is not on this command's network list (${list.join(', ')})`,
  };
}

export function ipLiteral(host: string, port: number, list: readonly string[]): Refusal {
  return {
    host,
    port,
    listable: false,
    line: `${PREFIX} ${host} is an IP address; this command may reach only the domains on its network list (${list.join(', ')})`,
  };
}

/** `address` is what `host` resolved to, when they differ. */
export function localAddress(host: string, port: number, address: string, kind: string): Refusal {
  const what = address === host ? `${host} is ${kind}` : `${host} resolves to ${address}, ${kind}`;
  return {
    host,
    port,
    listable: false,
    line: `${PREFIX} ${what}; commands never reach this machine or its local network`,
  };
}

export function badDestination(host: string, port: number, why: string): Refusal {
  return { host, port, listable: false, line: `${PREFIX} ${why}` };
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
  const listable = [...new Set(refusals.filter((r) => r.listable).map((r) => r.host))];
  const hint =
    policy !== true && listable.length > 0
      ? ` (run it again with ${listable.join(', ')} added to network if the command needs ${listable.length > 1 ? 'them' : 'it'})`
      : '';
  return `${first.line}${more}${hint}`;
}
