/**
 * A session's MCP servers as the contract's `mcp.*` calls reach them. A session without
 * its workspace runs no server, and every call says why.
 */
import type { McpOverview } from '../../../shared/contract.js';
import type { SessionMcp } from '../mcp/session-mcp.js';
import { asSessionError, reasonThen, SessionError } from './session-error.js';

export class SessionMcpCalls {
  constructor(
    private readonly servers: SessionMcp | null,
    /** Why this session has no servers (its workspace is missing or refused). */
    private readonly whyNone: () => string,
  ) {}

  async list(): Promise<McpOverview> {
    return this.require().overview();
  }

  async restart(server: string): Promise<McpOverview> {
    return this.require().restart(server).catch(asSessionError);
  }

  async setEnabled(server: string, enabled: boolean): Promise<McpOverview> {
    return this.require().setEnabled(server, enabled).catch(asSessionError);
  }

  private require(): SessionMcp {
    if (!this.servers) throw new SessionError(reasonThen(this.whyNone(), 'no MCP server runs here'));
    return this.servers;
  }
}
