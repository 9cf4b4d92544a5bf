/**
 * Tools (SPEC §2): the workspace tools a turn can call, held against one ToolContext.
 * A call is planned first (arguments checked, paths resolved, proposed bytes computed)
 * and executed only after the gate has looked at the plan.
 */
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { runTool } from './run.js';
import { searchReplaceTool } from './search-replace.js';
import { parseToolArgs } from './tool-args.js';
import {
  StalePlanError,
  ToolError,
  type ExecContext,
  type Plan,
  type ToolContext,
  type ToolDef,
  type ToolResult,
} from './types.js';
import { writeFileTool } from './write-file.js';

/** The six workspace tools, in the order the model is shown them. */
export const WORKSPACE_TOOLS: readonly ToolDef[] = Object.freeze([
  readFileTool,
  grepTool,
  listDirTool,
  searchReplaceTool,
  writeFileTool,
  runTool,
]);

export class Tools {
  private readonly byName: ReadonlyMap<string, ToolDef>;

  constructor(
    private readonly ctx: ToolContext,
    defs: readonly ToolDef[] = WORKSPACE_TOOLS,
  ) {
    this.byName = new Map(defs.map((def) => [def.name, def]));
  }

  definitions(): ToolDef[] {
    return [...this.byName.values()];
  }

  /**
   * Checks the arguments and plans the call; nothing on disk changes. Throws ToolError
   * for an unknown tool, bad arguments, or a path refused or unusable.
   */
  async plan(name: string, rawArgs: unknown): Promise<Plan> {
    const def = this.byName.get(name);
    if (def === undefined) {
      throw new ToolError(`unknown tool "${name}"; the tools are: ${[...this.byName.keys()].join(', ')}`);
    }
    const args = parseToolArgs(def, rawArgs);
    try {
      return await def.plan(args, this.ctx);
    } catch (err) {
      throw asToolError(err, name);
    }
  }

  /**
   * Where a `path` argument lands when that is outside the workspace, else null: an
   * absolute path, or a relative one into the app's data folder. The gate uses it to keep
   * planning errors about outside files (which would say whether a file exists, or
   * whether a string occurs in it) from reaching the model before a person has allowed
   * anything there.
   */
  async outsideTarget(name: string, rawArgs: unknown): Promise<string | null> {
    if (!this.byName.has(name) || name === 'run' || typeof rawArgs !== 'object' || rawArgs === null) return null;
    const target = (rawArgs as { path?: unknown }).path;
    if (typeof target !== 'string') return null;
    try {
      const resolved = await this.ctx.workspace.resolve(target);
      return resolved.inside ? null : resolved.real;
    } catch {
      return null;
    }
  }

  /**
   * Runs a plan. StalePlanError is thrown (the gate asks again); a failure the model
   * should read, such as a file-system error, comes back as an error result.
   */
  async execute(plan: Plan, exec: ExecContext = {}): Promise<ToolResult> {
    const def = this.byName.get(plan.tool);
    if (def === undefined) throw new Error(`no tool "${plan.tool}" to execute this plan`);
    try {
      return await def.execute(plan, this.ctx, exec);
    } catch (err) {
      if (err instanceof StalePlanError) throw err;
      if (err instanceof ToolError || isSystemError(err)) return { ok: false, error: err.message };
      throw err;
    }
  }
}

function asToolError(err: unknown, tool: string): unknown {
  if (err instanceof ToolError || !isSystemError(err)) return err;
  return new ToolError(`${tool}: ${err.message}`);
}

/** An error from the OS (it has an errno code), as opposed to a bug. */
function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';
}
