/**
 * Pinning (SPEC §10), folded from the session's log: what the person last allowed of each
 * MCP tool (so a changed tool's next card shows what changed), which server configs they
 * allowed or denied to start (by fingerprint), and the tools each server listed last. When a
 * server lists a tool differently from before, the session's grants for it are void: the
 * session logs `mcp_tool_changed` with how many, and the log's reducer drops them.
 */
import type { Grant, McpCardBody, McpServerCardBody, McpToolShape } from '../../../shared/cards.js';
import type { SessionEvent } from '../../../shared/events.js';
import { namedServer, serverKey, type ServerIdentity } from './server-key.js';

/** A tool's fingerprint by its model name, as one listing of a server gave them. */
export type ListedTools = ReadonlyMap<string, string>;

export class PinFold {
  /** MCP cards on screen, until answered, withdrawn or gone stale. */
  private readonly openCards = new Map<string, McpCardBody | McpServerCardBody>();
  private readonly allowedTools = new Map<string, McpToolShape>();
  /** By serverKey: the fingerprint whose start card was denied, and the last one allowed. */
  private readonly deniedStarts = new Map<string, string>();
  private readonly allowedStarts = new Map<string, string>();
  /** By server name, as its tools are named: what it listed last, across list_changed and restarts. */
  private readonly listed = new Map<string, ListedTools>();

  /** Every event of the log, in order: an answered MCP card pins what the person said. */
  add(event: SessionEvent): void {
    if (event.type === 'card' && (event.body.kind === 'mcp' || event.body.kind === 'mcp_server')) {
      this.openCards.set(event.cardId, event.body);
      return;
    }
    if (event.type === 'card_withdrawn' || event.type === 'card_stale') this.openCards.delete(event.cardId);
    if (event.type !== 'card_answer') return;
    const body = this.openCards.get(event.cardId);
    if (!body) return;
    this.openCards.delete(event.cardId);
    const allowed = event.answer !== 'deny';
    if (body.kind === 'mcp') {
      if (allowed) this.allowedTools.set(body.tool, { description: body.description, inputSchema: body.inputSchema });
    } else this.startAnswered(serverKey(namedServer(body)), body.fingerprint, allowed);
  }

  /** What the person last allowed of a tool, by its model name. */
  allowedShape(tool: string): McpToolShape | undefined {
    return this.allowedTools.get(tool);
  }

  /** The config fingerprint whose start the person denied, if any. */
  deniedStart(server: ServerIdentity): string | undefined {
    return this.deniedStarts.get(serverKey(server));
  }

  /** The config fingerprint the person last allowed to start, if any. */
  allowedStart(server: ServerIdentity): string | undefined {
    return this.allowedStarts.get(serverKey(server));
  }

  /** Settings' Restart: a denied start may be asked again. */
  forgetDenial(server: ServerIdentity): void {
    this.deniedStarts.delete(serverKey(server));
  }

  /** Takes a server's new listing; the tools that changed or went since the one before. */
  relisted(server: string, now: ListedTools): string[] {
    const before = this.listed.get(server) ?? new Map<string, string>();
    this.listed.set(server, now);
    return changedTools(before, now);
  }

  private startAnswered(key: string, fingerprint: string, allowed: boolean): void {
    if (!allowed) return void this.deniedStarts.set(key, fingerprint);
    this.allowedStarts.set(key, fingerprint);
    this.deniedStarts.delete(key);
  }
}

/** The tools of `before` whose fingerprint differs in `now`, or that `now` no longer lists. */
export function changedTools(before: ListedTools, now: ListedTools): string[] {
  return [...before].filter(([tool, fp]) => now.get(tool) !== fp).map(([tool]) => tool);
}

/** How many of the session's grants a change of this tool voids. */
export function grantsVoided(tool: string, grants: readonly Grant[]): number {
  return grants.filter((g) => g.kind === 'mcp' && g.tool === tool).length;
}
