/**
 * A session's MCP servers as Settings shows them: `mcp.list` when shown, again on each
 * `mcp.changed` push for that session, and the answer of Restart or Disable/Enable, which
 * is the new overview too. Replies can arrive out of order; the one asked last wins.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { McpOverview, Reply } from '../../../../shared/contract';
import { useApi } from '../../api/api-context';

export type OverviewView =
  { state: 'loading' } | { state: 'error'; error: string } | { state: 'loaded'; overview: McpOverview };

export type ServerAction = { kind: 'restart' } | { kind: 'enable'; enabled: boolean };

export interface McpOverviewHandle {
  view: OverviewView;
  /** Runs an action on a server; resolves to the call's error, or null when it went through. */
  act(server: string, action: ServerAction): Promise<string | null>;
}

function failed(error: unknown): Reply<never> {
  return { ok: false, error: error instanceof Error ? error.message : String(error) };
}

/** Give it a `key` of the session id: another session starts from "loading". */
export function useMcpOverview(id: string): McpOverviewHandle {
  const api = useApi();
  const [view, setView] = useState<OverviewView>({ state: 'loading' });
  const asked = useRef(0);
  const applied = useRef(0);
  const live = useRef(true);

  /** A reply counts only when nothing asked after it has counted already; a failed action keeps the list. */
  const settle = useCallback((ticket: number, reply: Reply<McpOverview>, listing: boolean) => {
    if (!live.current || ticket <= applied.current) return;
    if (reply.ok) {
      applied.current = ticket;
      setView({ state: 'loaded', overview: reply.data });
    } else if (listing) {
      applied.current = ticket;
      setView({ state: 'error', error: reply.error });
    }
  }, []);

  useEffect(() => {
    live.current = true;
    const list = async () => {
      const ticket = ++asked.current;
      const reply = await api['mcp.list']({ id }).catch(failed);
      settle(ticket, reply, true);
    };
    void list();
    const unsubscribe = api.subscribe((push) => {
      if (push.name === 'mcp.changed' && push.payload.id === id) void list();
    });
    return () => {
      live.current = false;
      unsubscribe();
    };
  }, [api, id, settle]);

  const act = async (server: string, action: ServerAction): Promise<string | null> => {
    const ticket = ++asked.current;
    const reply =
      action.kind === 'restart'
        ? await api['mcp.restart']({ id, server }).catch(failed)
        : await api['mcp.setEnabled']({ id, server, enabled: action.enabled }).catch(failed);
    settle(ticket, reply, false);
    return reply.ok ? null : reply.error;
  };

  return { view, act };
}
