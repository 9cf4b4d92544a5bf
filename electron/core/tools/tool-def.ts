/**
 * The seam between tools and the gate. A tool call is first *planned* (arguments
 * validated, paths resolved, proposed bytes computed) and only later *executed*, so the
 * gate can look at a plan before anything touches the disk or starts a process. No tool
 * decides permission itself.
 */
import type {
  AgentAskCardBody,
  AgentStartCardBody,
  CommandSandbox,
  McpCardBody,
  McpServerCardBody,
  PlaceApplyCardBody,
  ReadTool,
  WriteTool,
} from '../../../shared/cards.js';
import type { ResolvedPath, Workspace } from '../paths/workspace.js';
import type { ConfinementPolicy } from '../sandbox/confinement.js';
import type { SpareSandboxes } from '../process/spare-sandboxes.js';
import type { ToolShown } from '../tool-shape/tool-shown.js';
import type { ErrorKind } from '../error-kind.js';

export interface ReadPlan {
  kind: 'read';
  tool: ReadTool;
  /** The file or folder the call reads (grep's search root). */
  target: ResolvedPath;
  /** The validated arguments. */
  args: Record<string, unknown>;
}

export interface WritePlan {
  kind: 'write';
  tool: WriteTool;
  target: ResolvedPath;
  /** The bytes on disk when planned, or null when the file does not exist. */
  before: Buffer | null;
  /** The whole file content to write: the model's proposal, or the person's version of it. */
  after: Buffer;
  /** Set when the person edited the proposal on the card: the model's proposal, which `after` replaced. */
  proposal?: Buffer;
  /** SHA-256 hex of `before`, or "absent". */
  digest: string;
  args: Record<string, unknown>;
}

export interface CommandPlan {
  kind: 'command';
  tool: 'run';
  argv: string[];
  /** Real absolute working folder, inside the workspace. */
  cwd: string;
  timeoutS: number;
  /** True when the call gave timeout_s explicitly and it differs from the default. */
  customTimeout: boolean;
  /** The call asked for the network: false, any domain (true), or only these domains (sorted). */
  network: boolean | string[];
  /** The call asked to run without the sandbox. */
  unconfined: boolean;
  /** The call asked to write git state (git: true): .git writable, its hooks and config not. */
  git: boolean;
  /** What the run can reach (SPEC §9): the card shows it, the grant names it, the run is held to it. */
  sandbox: CommandSandbox;
  args: Record<string, unknown>;
}

/**
 * A call to an MCP server's tool (SPEC §10). The MCP room builds what the card shows; the
 * fingerprint in it binds the grant, as a digest binds a write.
 */
export interface McpPlan {
  kind: 'mcp';
  /** mcp__<server>__<tool>. */
  tool: string;
  body: McpCardBody;
  args: Record<string, unknown>;
}

/** A workspace MCP server's start (SPEC §10): always a card unless the session allowed this exact config. */
export interface McpServerPlan {
  kind: 'mcp_server';
  tool: string;
  body: McpServerCardBody;
  args: Record<string, unknown>;
}

/**
 * An external agent's start (SPEC §14): always a card unless the session allowed this
 * agent with this exact launch (the fingerprint). Executing it starts nothing: the
 * driver launches the process once the gate said yes.
 */
export interface AgentStartPlan {
  kind: 'agent_start';
  tool: 'agent_start';
  body: AgentStartCardBody;
  args: Record<string, unknown>;
}

/** An agent's own permission request (ACP session/request_permission): a card unless its title and kind were allowed for the session. */
export interface AgentAskPlan {
  kind: 'agent_ask';
  tool: 'agent_ask';
  body: AgentAskCardBody;
  args: Record<string, unknown>;
}

/**
 * The model's proposal to apply its place's change into the person's folder (SPEC §15):
 * always a card, never granted. `request` is what the apply runs with, on the review the
 * card was made from (its id planned afresh with each answer; the fingerprint must hold).
 */
export interface PlaceApplyPlan {
  kind: 'place_apply';
  tool: 'propose_apply';
  body: PlaceApplyCardBody;
  request: { reviewId: string; as: 'files' | 'commit'; paths: string[]; message?: string };
  args: Record<string, unknown>;
}

export type Plan =
  ReadPlan | WritePlan | CommandPlan | McpPlan | McpServerPlan | AgentStartPlan | AgentAskPlan | PlaceApplyPlan;

export type ToolResult =
  | { ok: true; output: string; details?: Record<string, unknown> }
  | { ok: false; error: string; details?: Record<string, unknown> };

export interface ExecContext {
  /** Aborting stops the work: a running command gets SIGTERM, then SIGKILL after the grace. */
  signal?: AbortSignal;
  /** Live output of a running command, for the UI only (never logged). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
}

/**
 * A tool's argument error or a refusal found while planning. Its message is written for
 * the model to read and names the field or path at fault. Planning that throws this has
 * changed nothing.
 */
export class ToolError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'ToolError';
}

/** What every tool is held against. */
export interface ToolContext {
  workspace: Workspace;
  /** The environment a command runs with: the app's own, secrets already removed. */
  commandEnv: NodeJS.ProcessEnv;
  /**
   * The sandbox commands run in (a NoSandbox where none can run: every command then plans
   * unconfined and its card says why), and whether to refuse those it cannot hold.
   */
  sandbox: ConfinementPolicy;
  /**
   * Sandboxes started ahead for the app's helpers: grep takes the one made for its view
   * instead of waiting for bubblewrap to start. Absent, each grep starts its own.
   */
  spares?: SpareSandboxes;
}

/** One tool: a schema for its arguments, a plan step and an execute step. */
export interface ToolDef<A = Record<string, unknown>> extends ToolShown<A> {
  /**
   * The tool takes a `path` it reads or writes. Where that lands outside the workspace, a
   * planning error is not shown to the model unless the session holds a grant there.
   */
  reaches?: 'read' | 'write';
  plan(args: A, ctx: ToolContext): Promise<Plan>;
  execute(plan: Plan, ctx: ToolContext, exec: ExecContext): Promise<ToolResult>;
}

/**
 * Thrown by a write's execute when the bytes on disk (or where the path lands) no longer
 * match the plan. Nothing was written; the gate drops the answer and asks again.
 */
export class StalePlanError extends Error {
  readonly errorKind: ErrorKind = 'conflict';
  override readonly name = 'StalePlanError';
}
