/**
 * Opens a session on a folder and shows it in a new tab; resolves to the call's reply (an
 * error in words). `agent`: an external agent drives it instead of Gatehouse's own (SPEC §14);
 * `place`: it works in a place of its own, from `base` or HEAD (SPEC §15).
 */
import { useCallback } from 'react';
import type { AgentId } from '../../../../shared/agents';
import type { Reply, SessionSummary } from '../../../../shared/contract';
import { useApi } from '../../api/api-context';
import { settled } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';

export interface OpenOptions {
  agent?: AgentId;
  place?: { base?: string };
}

export function useOpenSession(): (workspace: string, options?: OpenOptions) => Promise<Reply<SessionSummary>> {
  const api = useApi();
  const upsertSummary = useAppStore((s) => s.upsertSummary);
  const openTab = useAppStore((s) => s.openTab);
  return useCallback(
    async (workspace: string, { agent, place }: OpenOptions = {}) => {
      const reply = await settled(
        api['sessions.open']({ workspace, ...(agent ? { agent } : {}), ...(place ? { place } : {}) }),
      );
      if (reply.ok) {
        upsertSummary(reply.data);
        openTab(reply.data.id);
      }
      return reply;
    },
    [api, upsertSummary, openTab],
  );
}
