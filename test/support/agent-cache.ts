/**
 * The pinned agents CI installs before the tests (`.ci/run` runs scripts/install-agents-cache.ts)
 * into `$GATEHOUSE_AGENT_CACHE` (default /var/cache/gatehouse-agents), laid out as the data
 * folder's `agents/<id>/pkg`. A test that needs a real agent asks here, and FAILS with the
 * reason when it is missing or not at its pin: it never skips.
 */
import { catalogSpec } from '../../electron/core/agents/agent-catalog.js';
import { agentFolders, installedAt, type InstalledAgent } from '../../electron/core/agents/agent-folder.js';
import type { AgentId } from '../../shared/agents.js';

export const DEFAULT_AGENT_CACHE = '/var/cache/gatehouse-agents';

/** The cache's root: `$GATEHOUSE_AGENT_CACHE`, or the default. */
export function agentCacheRoot(): string {
  return process.env.GATEHOUSE_AGENT_CACHE || DEFAULT_AGENT_CACHE;
}

/** The cached install of `id` at the catalog's pin: `{prefix, entryPath, version}`; throws saying why when there is none. */
export async function cachedAgent(id: AgentId): Promise<InstalledAgent> {
  const spec = catalogSpec(id);
  const root = agentCacheRoot();
  const { prefix } = agentFolders(root, id);
  const found = await installedAt(prefix, spec);
  const fix = 'run `npm exec -- node --import tsx scripts/install-agents-cache.ts` (.ci/run does it before the tests)';
  if (!found) {
    throw new Error(
      `${spec.label} ${spec.version} is not in the agent cache (${prefix}/${spec.entry} is missing): ${fix}`,
    );
  }
  if (found.version !== spec.version) {
    throw new Error(`the agent cache has ${spec.label} ${found.version}, but the catalog pins ${spec.version}: ${fix}`);
  }
  return found;
}
