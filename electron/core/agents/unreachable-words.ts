/**
 * The transcript's line when an agent cannot reach a host (SPEC §14): its CLI retries a
 * model host it cannot reach, or one the sandbox refused, and says nothing to the client
 * meanwhile, so the person would see only "working". One line in words, never a key.
 */
import type { Refusal } from '../sandbox/network/refusal.js';
import type { Unreachable } from './model-relay.js';

const REFUSAL_PREFIX = 'blocked by the sandbox: ';

/** "Claude Code cannot reach 127.0.0.1:4000 (connection refused); it is retrying". */
export function unreachableWords(label: string, what: Unreachable): string {
  return `${label} cannot reach ${what.host} (${what.why}); it is retrying`;
}

/** "Claude Code cannot reach api.anthropic.com: the sandbox blocked it (…)". */
export function refusedWords(label: string, refusal: Refusal): string {
  const host = refusal.port === 443 || refusal.port === 80 ? refusal.host : `${refusal.host}:${refusal.port}`;
  // A host a list entry would let through: the agent's list is in Settings, not on a command's card.
  const why =
    refusal.suggest !== null
      ? `${host} is not on ${label}’s hosts in Settings → Agents`
      : refusal.line.startsWith(REFUSAL_PREFIX)
        ? refusal.line.slice(REFUSAL_PREFIX.length)
        : refusal.line;
  return `${label} cannot reach ${host}: the sandbox blocked it (${why})`;
}
