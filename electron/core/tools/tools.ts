/**
 * Tools (SPEC §2): the workspace tools a turn can call, held against one ToolContext.
 * A call is planned first (arguments checked, paths resolved, proposed bytes computed)
 * and executed only after the gate has looked at the plan.
 */
import type { Grant, ReadTool } from '../../../shared/cards.js';
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
} from './tool-def.js';
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

/** Where a call's `path` lands outside the workspace, and the grant that would cover it there. */
export interface OutsideTarget {
  path: string;
  grant: Grant;
}

const NO_TOOLS: readonly ToolDef[] = Object.freeze([]);

export class Tools {
  private readonly own: ReadonlyMap<string, ToolDef>;
  /** The last list handed out, kept while the extra tools stay the same list, so the model's tool block stays byte for byte. */
  private listed: { extra: readonly ToolDef[]; all: ToolDef[] } | null = null;

  /**
   * `extra` gives tools that come and go (an MCP server's): asked afresh at each call,
   * and expected to return the same array for as long as they do not change.
   */
  constructor(
    private readonly ctx: ToolContext,
    defs: readonly ToolDef[] = WORKSPACE_TOOLS,
    private readonly extra: () => readonly ToolDef[] = () => NO_TOOLS,
  ) {
    this.own = new Map(defs.map((def) => [def.name, def]));
  }

  /** Every tool, the workspace's first; the same array until the extra tools change. */
  definitions(): ToolDef[] {
    const extra = this.extra();
    if (this.listed?.extra !== extra) {
      const all = [...this.own.values(), ...extra.filter((def) => !this.own.has(def.name))];
      this.listed = { extra, all };
    }
    return this.listed.all;
  }

  private find(name: string): ToolDef | undefined {
    return this.own.get(name) ?? this.extra().find((def) => def.name === name);
  }

  /**
   * Checks the arguments and plans the call; nothing on disk changes. Throws ToolError
   * for an unknown tool, bad arguments, or a path refused or unusable.
   */
  async plan(name: string, rawArgs: unknown): Promise<Plan> {
    const def = this.find(name);
    if (def === undefined) {
      const names = this.definitions().map((d) => d.name);
      throw new ToolError(`unknown tool "${name}"; the tools are: ${names.join(', ')}`);
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
  async outsideTarget(name: string, rawArgs: unknown): Promise<OutsideTarget | null> {
    const reaches = this.own.get(name)?.reaches;
    if (reaches === undefined || typeof rawArgs !== 'object' || rawArgs === null) return null;
    const target = (rawArgs as { path?: unknown }).path;
    if (typeof target !== 'string') return null;
    try {
      const resolved = await this.ctx.workspace.resolve(target);
      if (resolved.inside) return null;
      const path = resolved.real;
      const grant: Grant =
        reaches === 'write' ? { kind: 'write', path } : { kind: 'read', tool: name as ReadTool, path };
      return { path, grant };
    } catch {
      return null;
    }
  }

  /**
   * Runs a plan. StalePlanError is thrown (the gate asks again); a failure the model
   * should read, such as a file-system error, comes back as an error result.
   */
  async execute(plan: Plan, exec: ExecContext = {}): Promise<ToolResult> {
    const def = this.find(plan.tool);
    if (def === undefined) return { ok: false, error: `the tool "${plan.tool}" is no longer available` };
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
