/** Opens a session on a folder and shows it in a new tab; resolves to an error text or null. */
import { useCallback } from 'react';
import { useApi } from '../../api/api-context';
import { useAppStore } from '../../store/app-store';

export function useOpenSession(): (workspace: string) => Promise<string | null> {
  const api = useApi();
  const upsertSummary = useAppStore((s) => s.upsertSummary);
  const openTab = useAppStore((s) => s.openTab);
  return useCallback(
    async (workspace: string) => {
      const reply = await api['sessions.open']({ workspace });
      if (!reply.ok) return reply.error;
      upsertSummary(reply.data);
      openTab(reply.data.id);
      return null;
    },
    [api, upsertSummary, openTab],
  );
}
