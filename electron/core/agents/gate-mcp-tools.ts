/**
 * What the gate's MCP face offers an external agent, and how one of its calls runs: the
 * native workspace tools that write, run and read (their own names, words, schemas and
 * limits), each call logged and gated exactly as the native runner does it. This is a
 * thin adapter over the same tools and the same gate, not a second gate.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolSpecs } from '../context/tool-specs.js';
import { CancelledError } from '../gate/gate-error.js';
import { storeToolArgs } from '../log/stored-tool-args.js';
import type { DriverSeam } from '../sessions/session-driver.js';
import { parseToolArgs } from '../tools/tool-args.js';
import { ToolError, type ToolDef, type ToolResult } from '../tools/tool-def.js';
import { WORKSPACE_TOOLS } from '../tools/tools.js';
import type { LiveTurn, LiveTurnDoor } from './live-turn.js';
import type { ErrorKind } from '../error-kind.js';
import { AGENT_CANCELLED } from './gate-mcp-cancels.js';

/** The native tools the agent reaches the workspace through; its own tools only read. */
export const GATE_TOOL_NAMES = Object.freeze(['write_file', 'search_replace', 'run', 'read_file', 'list_dir'] as const);

/**
 * Every name the face may offer: the workspace tools, and propose_apply in a place of its
 * own. An agent's own permission prompt for them is turned off (agent-holds.ts): the gate's
 * card is the one that asks, and asking twice teaches the person to click through.
 */
export const GATE_OFFERED_NAMES = Object.freeze([...GATE_TOOL_NAMES, 'propose_apply'] as const);

const GATE_TOOLS: readonly ToolDef[] = Object.freeze(
  GATE_TOOL_NAMES.map((name) => {
    const def = WORKSPACE_TOOLS.find((d) => d.name === name);
    if (!def) throw new Error(`the workspace tools have no "${name}"`);
    return def;
  }),
);

/** Told to the model in `initialize`: why these tools, and what happens on each call. */
export const GATE_INSTRUCTIONS =
  'These tools are your only way to change the workspace: write_file and search_replace to write files, run to run ' +
  'commands. Your own write, edit and shell tools cannot change the workspace (it is read-only to you). Each write ' +
  'and command is shown to the user, who allows or denies it; a denied call says so, and then do not retry it ' +
  'unchanged. read_file and list_dir also reach files outside the workspace, with the user asked first.';

/** The words (and the result's last words in the log) for a call the turn's cancel cut short: as native. */
export const CANCELLED = 'cancelled by the user before this call finished';

/**
 * tools/list: the tools with their JSON schemas, converted once per definition as for the
 * model's own tool set; `offered` adds the session's place tools (GateCalls.offered).
 */
export function listedGateTools(offered: readonly ToolDef[] = GATE_TOOLS): Tool[] {
  const specs = toolSpecs(offered);
  return offered.map((def) => ({
    name: def.name,
    description: def.description,
    inputSchema: specs[def.name]!.inputSchema as Tool['inputSchema'],
  }));
}

/** A call the MCP face could not take at all: answered as a protocol error, nothing logged. */
export class UnknownGateToolError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'UnknownGateToolError';
}

function text(words: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: words }], ...(isError ? { isError: true } : {}) };
}

/**
 * One session's calls through its gate. Calls run one at a time in the order they came,
 * as the calls of one native step do, so a second card goes up once the first is settled;
 * each is logged (`tool_call`) as soon as it arrives, as a step's calls are.
 */
export class GateCalls {
  /** The end of the last call taken: the next one waits for it. */
  private tail: Promise<unknown> = Promise.resolve();
  private readonly running = new Set<Promise<unknown>>();
  /** The offered list while the place's tools stay the same array, so tools/list reads the same. */
  private joined: { place: readonly ToolDef[]; all: readonly ToolDef[] } | null = null;

  constructor(
    private readonly seam: DriverSeam,
    private readonly turn: LiveTurnDoor,
  ) {}

  /**
   * The tools this session's face offers: the workspace's, and in a place of its own
   * propose_apply (asked every time on its card, applied as the person's own apply).
   */
  offered(): readonly ToolDef[] {
    const place = this.seam.placeTools?.() ?? [];
    if (place.length === 0) return GATE_TOOLS;
    if (this.joined?.place !== place) this.joined = { place, all: [...GATE_TOOLS, ...place] };
    return this.joined.all;
  }

  /**
   * Runs one tools/call. Refused in words, with nothing logged, when no turn is live or
   * the arguments do not fit the tool; throws UnknownGateToolError for a tool not offered.
   * `withdrawn` is the agent's own cancel of this call (gate-mcp-cancels.ts): its card is
   * withdrawn and it ends in AGENT_CANCELLED, the turn going on.
   */
  async call(name: string, rawArgs: unknown, withdrawn?: AbortSignal): Promise<CallToolResult> {
    const live = this.turn.current();
    if (!live) {
      return text(
        `no turn is running; ${name} was not run. The user starts a turn with a message; call the tool during a turn.`,
        true,
      );
    }
    const offered = this.offered();
    const def = offered.find((d) => d.name === name);
    if (!def) {
      throw new UnknownGateToolError(`unknown tool "${name}"; the tools are: ${offered.map((d) => d.name).join(', ')}`);
    }
    try {
      parseToolArgs(def, rawArgs ?? {});
    } catch (err) {
      if (err instanceof ToolError) return text(err.message, true);
      throw err;
    }
    const done = this.gated(live, name, rawArgs ?? {}, withdrawn);
    this.running.add(done);
    try {
      return await done;
    } finally {
      this.running.delete(done);
    }
  }

  /** Resolves once every call taken so far has logged its result (the driver awaits it before `turn_ended`). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async gated(
    { turnId, signal }: LiveTurn,
    tool: string,
    args: unknown,
    withdrawn: AbortSignal | undefined,
  ): Promise<CallToolResult> {
    const { record } = this.seam;
    const toolCallId = this.seam.newId();
    const stored = await storeToolArgs(args, { put: (data) => record.putBlob(Buffer.from(data)) });
    await record.append({ type: 'tool_call', turnId, toolCallId, tool, ...stored });
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    try {
      await before;
      const r = await this.runGated({ turnId, toolCallId, tool, args }, signal, withdrawn);
      const output = r.ok ? r.output : r.error;
      await record.append({
        type: 'tool_result',
        turnId,
        toolCallId,
        tool,
        ok: r.ok,
        output,
        ...(r.details ? { details: r.details } : {}),
      });
      return text(output, !r.ok);
    } finally {
      release();
    }
  }

  /**
   * The gate's answer; a call the turn's cancel cut short (waiting its turn, or at its card)
   * ends in CANCELLED, one the agent cancelled itself in AGENT_CANCELLED.
   */
  private async runGated(
    call: { turnId: string; toolCallId: string; tool: string; args: unknown },
    turn: AbortSignal,
    withdrawn: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const signal = withdrawn ? AbortSignal.any([turn, withdrawn]) : turn;
    const cut = (): ToolResult => ({ ok: false, error: turn.aborted ? CANCELLED : AGENT_CANCELLED });
    if (signal.aborted) return cut();
    try {
      return await this.seam.gate.run(call, {
        signal,
        onOutput: (stream, chunk) => this.seam.onOutput(call.toolCallId, stream, chunk),
      });
    } catch (err) {
      if (err instanceof CancelledError || signal.aborted) return cut();
      throw err;
    }
  }
}
