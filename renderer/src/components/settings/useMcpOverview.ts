/**
 * A session's MCP servers as Settings shows them: `mcp.list` when shown, again on each
 * `mcp.changed` push for that session, and the answer of Restart or Disable/Enable, which
 * is the new overview too. Replies can arrive out of order; the one asked last wins (all
 * of them go through one useCall).
 */
import { useEffect } from 'react';
import type { McpOverview, Reply } from '../../../../shared/contract';
import { useApi } from '../../api/api-context';
import { useCall } from '../../api/use-call';

export type OverviewView =
  { state: 'loading' } | { state: 'error'; error: string } | { state: 'loaded'; overview: McpOverview };

export type ServerAction = { kind: 'restart' } | { kind: 'enable'; enabled: boolean };

type Ask = { kind: 'list' } | { kind: 'act'; server: string; action: ServerAction };

const LIST: Ask = { kind: 'list' };

export interface McpOverviewHandle {
  view: OverviewView;
  /** Runs an action on a server; resolves to the call's reply (the new overview, or why not). */
  act(server: string, action: ServerAction): Promise<Reply<McpOverview>>;
}

/** Give it a `key` of the session id: another session starts from "loading". */
export function useMcpOverview(id: string): McpOverviewHandle {
  const api = useApi();
  const overview = useCall((calls, ask: Ask) => {
    if (ask.kind === 'list') return calls['mcp.list']({ id });
    const { server, action } = ask;
    return action.kind === 'restart'
      ? calls['mcp.restart']({ id, server })
      : calls['mcp.setEnabled']({ id, server, enabled: action.enabled });
  });
  const { run, data, error, args } = overview;

  useEffect(() => {
    void run(LIST);
    return api.subscribe((push) => {
      if (push.name === 'mcp.changed' && push.payload.id === id) void run(LIST);
    });
  }, [api, id, run]);

  // A failed listing says so; a failed action keeps the list (its server says what failed).
  const view: OverviewView =
    error !== null && args?.[0].kind === 'list'
      ? { state: 'error', error }
      : data !== undefined
        ? { state: 'loaded', overview: data }
        : { state: 'loading' };

  return { view, act: (server, action) => run({ kind: 'act', server, action }) };
}
