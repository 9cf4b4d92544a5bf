/**
 * Settings → Agents' data: `agents.list` when shown and again after an install or removal,
 * and the latest `agents.progress` push per agent (the progress bar and its line). A
 * failed listing says why (a build without agents says so in the host's words).
 */
import { useCallback, useEffect, useState } from 'react';
import type { AgentId, AgentListing, AgentProgress } from '../../../../shared/agents';
import { useApi } from '../../api/api-context';
import { useCall } from '../../api/use-call';

export type AgentsView =
  { state: 'loading' } | { state: 'error'; error: string } | { state: 'loaded'; agents: AgentListing[] };

export interface AgentsHandle {
  view: AgentsView;
  /** The latest progress of each agent's install or removal since this was shown. */
  progress: Partial<Record<AgentId, AgentProgress>>;
  /** Lists again (after an install, update or removal finished). */
  refresh(): void;
  /** Forgets an agent's progress (a new install starts afresh). */
  clearProgress(id: AgentId): void;
  /** Puts an agent's listing as the host answered a change of it (its domains). */
  replace(listing: AgentListing): void;
}

export function useAgents(): AgentsHandle {
  const api = useApi();
  const listing = useCall((calls) => calls['agents.list']({}));
  const { run } = listing;
  const [progress, setProgress] = useState<Partial<Record<AgentId, AgentProgress>>>({});
  const [replaced, setReplaced] = useState<Partial<Record<AgentId, AgentListing>>>({});

  useEffect(() => {
    void run();
    return api.subscribe((push) => {
      if (push.name === 'agents.progress') setProgress((p) => ({ ...p, [push.payload.id]: push.payload }));
    });
  }, [api, run]);

  const refresh = useCallback(() => {
    setReplaced({});
    void run();
  }, [run]);
  const clearProgress = useCallback((id: AgentId) => setProgress(({ [id]: _gone, ...rest }) => rest), []);
  const replace = useCallback((l: AgentListing) => setReplaced((r) => ({ ...r, [l.id]: l })), []);

  const view: AgentsView =
    listing.data !== undefined
      ? { state: 'loaded', agents: listing.data.agents.map((a) => replaced[a.id] ?? a) }
      : listing.error !== null
        ? { state: 'error', error: listing.error }
        : { state: 'loading' };
  return { view, progress, refresh, clearProgress, replace };
}
