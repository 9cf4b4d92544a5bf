/**
 * An agent's `session/update` notifications as session events (acp-design.md §6): its
 * message streamed live and logged whole when the message ends; its own tool calls as
 * `agent_tool` rows without cards; its plan as a `plan` event. The gate's own MCP tools
 * are left out, the MCP face logs those itself. Anything else (thoughts, modes, commands,
 * updates ACP does not know yet) is not the transcript's.
 */
import type { SessionUpdate, ToolCallContent, ToolCallLocation } from '@agentclientprotocol/sdk';
import type { PlanEntry } from '../../../shared/events.js';
import type { DriverSeam } from '../sessions/session-driver.js';

export const AGENT_TOOL = 'agent_tool';
/** The result an agent's own call gets when its turn ends before the agent said how it ended. */
export const NO_END_REPORTED = 'the turn ended before the agent reported how this call ended';

/** What one turn's updates become: the message so far, and the agent's calls still open. */
export class TurnUpdates {
  private text = '';
  /** The agent's tool call id → the logged call's id, while it has no result. */
  private readonly open = new Map<string, string>();
  /** The agent's ids of calls left out (the gate's own tools, already logged), or closed. */
  private readonly done = new Set<string>();
  /**
   * Calls announced before their input was known (Claude Code titles a Read "Read File"
   * until its path has streamed in): held, with each update's words merged in, until they
   * run or name a place, since a logged row never changes.
   */
  private readonly held = new Map<string, CallFields>();

  constructor(
    private readonly seam: DriverSeam,
    private readonly turnId: string,
    /** The gate's MCP server name as the agent knows it. */
    private readonly gateServer: string,
  ) {}

  /** Applies one update; the caller keeps them in arrival order. */
  async apply(update: SessionUpdate): Promise<void> {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type !== 'text') return;
        this.text += update.content.text;
        this.seam.onDelta(this.turnId, update.content.text);
        return;
      case 'tool_call':
        await this.endMessage();
        return this.toolCall(update.toolCallId, update);
      case 'tool_call_update':
        await this.endMessage();
        return this.toolUpdate(update.toolCallId, update);
      case 'plan':
        await this.endMessage();
        await this.seam.record.append({ type: 'plan', turnId: this.turnId, entries: update.entries.map(planEntry) });
        return;
      default:
        return;
    }
  }

  /** Logs the message streamed so far as one assistant_text, if there is any. */
  async endMessage(): Promise<void> {
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    await this.seam.record.append({ type: 'assistant_text', turnId: this.turnId, text });
  }

  /** At the turn's end: the message logged, and every call still open given a result. */
  async close(why = NO_END_REPORTED): Promise<void> {
    await this.endMessage();
    for (const [agentId, call] of this.held) {
      this.held.delete(agentId);
      await this.logCall(agentId, call);
    }
    for (const [agentId, toolCallId] of this.open) {
      this.open.delete(agentId);
      await this.seam.record.append({
        type: 'tool_result',
        turnId: this.turnId,
        toolCallId,
        tool: AGENT_TOOL,
        ok: false,
        output: why,
      });
    }
  }

  private async toolCall(agentId: string, call: CallFields): Promise<void> {
    if (this.open.has(agentId) || this.done.has(agentId) || this.held.has(agentId)) {
      return this.toolUpdate(agentId, call);
    }
    if (isGateTool(call, this.gateServer)) {
      this.done.add(agentId);
      return;
    }
    if (unsettled(call)) {
      this.held.set(agentId, { ...call });
      return;
    }
    return this.logCall(agentId, call);
  }

  private async logCall(agentId: string, call: CallFields): Promise<void> {
    const toolCallId = this.seam.newId();
    this.open.set(agentId, toolCallId);
    const args = {
      title: call.title ?? '',
      kind: call.kind ?? 'other',
      ...(call.locations?.length ? { locations: call.locations.map((l) => l.path) } : {}),
    };
    await this.seam.record.append({ type: 'tool_call', turnId: this.turnId, toolCallId, tool: AGENT_TOOL, args });
    if (call.status === 'completed' || call.status === 'failed') await this.toolUpdate(agentId, call);
  }

  /** Only an update that ends the call is logged: the log has no edits, and a row changes once. */
  private async toolUpdate(agentId: string, update: CallFields): Promise<void> {
    const held = this.held.get(agentId);
    if (held) {
      const merged = mergeCall(held, update);
      if (isGateTool(merged, this.gateServer)) {
        this.held.delete(agentId);
        this.done.add(agentId);
      } else if (unsettled(merged)) this.held.set(agentId, merged);
      else {
        this.held.delete(agentId);
        await this.logCall(agentId, merged);
      }
      return;
    }
    const toolCallId = this.open.get(agentId);
    if (!toolCallId) {
      // An update for a call never announced: it becomes its call, as ACP lets an agent do.
      if (!this.done.has(agentId) && update.title) await this.toolCall(agentId, update);
      return;
    }
    if (update.status !== 'completed' && update.status !== 'failed') return;
    this.open.delete(agentId);
    this.done.add(agentId);
    const ok = update.status === 'completed';
    const output = contentText(update.content) || (ok ? 'completed' : 'failed');
    await this.seam.record.append({
      type: 'tool_result',
      turnId: this.turnId,
      toolCallId,
      tool: AGENT_TOOL,
      ok,
      output,
    });
  }
}

interface CallFields {
  title?: string | null;
  kind?: string | null;
  status?: string | null;
  locations?: ToolCallLocation[] | null;
  content?: ToolCallContent[] | null;
  _meta?: Record<string, unknown> | null;
}

/** A call announced but not yet running, that names no place: its input may still be streaming. */
function unsettled(call: CallFields): boolean {
  return call.status === 'pending' && !call.locations?.length;
}

/** A held call with an update's fields on top (ACP updates carry only what changed). */
function mergeCall(call: CallFields, update: CallFields): CallFields {
  const merged: CallFields = { ...call };
  for (const key of ['title', 'kind', 'status', 'locations', 'content', '_meta'] as const) {
    if (update[key] !== undefined && update[key] !== null) Object.assign(merged, { [key]: update[key] });
  }
  return merged;
}

/**
 * A call of the gate's own MCP tools, as each agent names it: Claude Code says the tool's
 * name in `_meta.claudeCode.toolName` (mcp__<server>__<tool>); Gemini CLI titles it
 * "<tool> (<server> MCP Server)".
 */
export function isGateTool(call: CallFields, server: string): boolean {
  const prefix = `mcp__${server}__`;
  const meta = call._meta?.claudeCode as { toolName?: unknown } | undefined;
  if (typeof meta?.toolName === 'string' && meta.toolName.startsWith(prefix)) return true;
  const title = call.title ?? '';
  return title.startsWith(prefix) || title.endsWith(`(${server} MCP Server)`);
}

/** The text an agent gave with a call's end, as plain text (diffs and terminals are named, not shown). */
function contentText(content: ToolCallContent[] | null | undefined): string {
  const parts = (content ?? []).map((c) => {
    if (c.type === 'content') return c.content.type === 'text' ? c.content.text : `[${c.content.type}]`;
    if (c.type === 'diff') return `[diff of ${c.path}]`;
    return '[terminal]';
  });
  return parts.join('\n').slice(0, 16 * 1024);
}

function planEntry(e: { content: string; status: string; priority: string }): PlanEntry {
  const status = (['pending', 'in_progress', 'completed'] as const).find((s) => s === e.status) ?? 'pending';
  const priority = (['high', 'medium', 'low'] as const).find((p) => p === e.priority) ?? 'medium';
  return { content: String(e.content), status, priority };
}
