/**
 * A session's servers against its config read afresh (SPEC §10), before each turn and each
 * of Settings' actions. A server that left the config, or changed (another fingerprint, or
 * now named by another file), stops; a server the config names that is not running joins,
 * to start when a turn asks for it. Pure: the session stops and adds what this says.
 */
import { serverFingerprint } from './fingerprint.js';
import type { McpConfig, McpServerConfig } from './mcp-config.js';
import { serverKey } from './server-key.js';

/** What reconciling needs of a running server: the config it started from, and its fingerprint. */
export interface Reconcilable {
  config: McpServerConfig;
  fingerprint: string;
}

export interface Reconciled<S> {
  /** The servers to stop and forget, in the session's order. */
  stop: S[];
  /** The configs to add, stopped, in the config's order: new names, and the changed ones again. */
  add: McpServerConfig[];
}

/** `current` is the session's servers by name. */
export function reconcileConfig<S extends Reconcilable>(
  current: ReadonlyMap<string, S>,
  config: McpConfig,
): Reconciled<S> {
  const named = new Map(config.servers.map((c) => [c.name, c]));
  const stop = [...current].filter(([name, server]) => !unchanged(server, named.get(name))).map(([, s]) => s);
  const stopped = new Set(stop);
  const add = [...named.values()].filter((c) => {
    const server = current.get(c.name);
    return !server || stopped.has(server);
  });
  return { stop, add };
}

function unchanged(server: Reconcilable, next: McpServerConfig | undefined): boolean {
  return (
    next !== undefined && serverFingerprint(next) === server.fingerprint && serverKey(next) === serverKey(server.config)
  );
}
