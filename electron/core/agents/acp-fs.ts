/**
 * An agent's `fs/*` requests (ACP) held to the gate as the native tools are. A write is a
 * `write_file` call: the same card, diff, digest and grant, refused as the native tool
 * refuses (outside through a link, over the size cap). A read inside the workspace is
 * free; outside it is the read card of `read_file`. The agent gets the file's raw text,
 * which is what ACP promises, not read_file's numbered lines.
 */
import { RequestError } from '@agentclientprotocol/sdk';
import type {
  ReadTextFileRequest,
  ReadTextFileResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { storeToolArgs } from '../log/stored-tool-args.js';
import { CancelledError } from '../gate/gate-error.js';
import type { Planner } from '../gate/permission-gate.js';
import { isOpenAt, openRegularFile } from '../paths/regular-file.js';
import { PathEscapeError, PathInputError, type ResolvedPath, type Workspace } from '../paths/workspace.js';
import type { DriverSeam } from '../sessions/session-driver.js';
import { StalePlanError, ToolError, type Plan, type ToolResult } from '../tools/tool-def.js';

/** The turn a request belongs to. */
export interface LiveTurn {
  turnId: string;
  signal: AbortSignal;
}

/** ACP's "Resource not found" (the SDK's RequestError.resourceNotFound). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * How a read of a file that is not there (inside the workspace) is answered: ACP's
 * "Resource not found" error, or, for an agent that cannot tell that error from a failure,
 * an empty text. Gemini CLI 0.61 is one: its acpFileSystemService turns "Resource not
 * found" into ENOENT only when the rejection is an Error, but its ACP connection rejects
 * with the plain JSON-RPC error object, so its `write_file` of a new file failed with
 * "Error checking existing file" and never wrote. An empty text lets it go on to write
 * (through `fs/write_text_file`, so still a write card whose diff is made from the disk).
 */
export type MissingFileAnswer = 'not-found' | 'empty';
/** A read answered whole up to this; an agent reads more with line/limit. */
const READ_TEXT_MAX_BYTES = 4 * 1024 * 1024;
export const CANCELLED_CALL = 'cancelled by the user before this call finished';

const readArgs = z.object({
  path: z.string().min(1),
  line: z.number().int().min(1).nullish(),
  limit: z.number().int().min(0).nullish(),
});

export class AcpFs {
  constructor(
    private readonly seam: DriverSeam,
    private readonly missingFile: MissingFileAnswer = 'not-found',
  ) {}

  /** fs/write_text_file as a write_file call through the gate; a refusal is a JSON-RPC error in the gate's words. */
  async write(turn: LiveTurn, params: WriteTextFileRequest): Promise<WriteTextFileResponse> {
    const result = await this.gated(turn, 'write_file', { path: params.path, content: params.content });
    if (!result.ok) throw new RequestError(-32000, `write_text_file: ${result.error}`);
    return {};
  }

  /** fs/read_text_file: free inside the workspace, a read card outside; raw text, windowed by line and limit. */
  async read(turn: LiveTurn, params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const args = {
      path: params.path,
      ...(params.line ? { line: params.line } : {}),
      ...(params.limit != null ? { limit: params.limit } : {}),
    };
    const result = await this.gated(turn, 'read_file', args, rawReadPlanner(this.seam.workspace));
    if (result.ok) return { content: result.output };
    // Outside, a missing file is refused while planning (rawReadPlanner): only one gone after its read card reads empty.
    if (result.details?.missing === true && this.missingFile === 'empty') return { content: '' };
    if (result.details?.missing === true)
      throw new RequestError(RESOURCE_NOT_FOUND, `Resource not found: ${result.error}`, { uri: params.path });
    throw new RequestError(-32000, `read_text_file: ${result.error}`);
  }

  /** One call logged, gated, and its result logged: every call the log names gets a result, a cancel included. */
  private async gated(turn: LiveTurn, tool: string, args: Record<string, unknown>, via?: Planner): Promise<ToolResult> {
    const { record, gate, newId } = this.seam;
    const toolCallId = newId();
    const stored = await storeToolArgs(args, { put: (d) => record.putBlob(Buffer.from(d)) });
    await record.append({ type: 'tool_call', turnId: turn.turnId, toolCallId, tool, ...stored });
    let result: ToolResult;
    try {
      result = await gate.run({ turnId: turn.turnId, toolCallId, tool, args }, { signal: turn.signal }, via);
    } catch (err) {
      if (!(err instanceof CancelledError) && !turn.signal.aborted) throw err;
      result = { ok: false, error: CANCELLED_CALL };
    }
    const output = result.ok ? result.output : result.error;
    await record.append({
      type: 'tool_result',
      turnId: turn.turnId,
      toolCallId,
      tool,
      ok: result.ok,
      output,
      ...(result.details ? { details: result.details } : {}),
    });
    return result;
  }
}

/**
 * Plans a raw read as read_file plans it (same kind, tool and target, so the same card and
 * grant), and executes it as ACP wants: the text itself. A missing file says so in
 * `details.missing`, so the agent gets "Resource not found"; outside the workspace that
 * is only told when the session may read there (the gate masks it otherwise).
 */
export function rawReadPlanner(workspace: Workspace): Planner {
  return {
    plan: async (_tool, raw): Promise<Plan> => {
      const args = readArgs.parse(raw);
      const target = await resolve(workspace, args.path);
      // Inside, a missing file is planned (reads there are free) so its read can say "not found";
      // outside, it is refused while planning, which the gate masks unless the session may read there.
      if (!target.exists && !target.inside) throw new ToolError(`"${args.path}" does not exist`);
      return { kind: 'read', tool: 'read_file', target, args: { ...args } };
    },
    execute: (plan) => executeRawRead(workspace, plan),
    outsideTarget: async (_tool, raw) => {
      const parsed = readArgs.safeParse(raw);
      if (!parsed.success) return null;
      const target = await resolve(workspace, parsed.data.path).catch(() => null);
      if (!target || target.inside) return null;
      return { path: target.real, grant: { kind: 'read', tool: 'read_file', path: target.real } };
    },
  };
}

async function resolve(workspace: Workspace, input: string): Promise<ResolvedPath> {
  try {
    return await workspace.resolve(input);
  } catch (err) {
    if (err instanceof PathEscapeError || err instanceof PathInputError) throw new ToolError(err.message);
    throw err;
  }
}

async function executeRawRead(workspace: Workspace, plan: Plan): Promise<ToolResult> {
  if (plan.kind !== 'read') throw new Error(`a raw read cannot execute a ${plan.kind} plan`);
  const { line, limit } = plan.args as { line?: number; limit?: number };
  const file = await openRegularFile(plan.target.real);
  if (!file) return { ok: false, error: `"${plan.target.input}" does not exist`, details: { missing: true } };
  try {
    // Read only what the card named: the path must still land there, and the open file be the one there.
    const now = await workspace.resolve(plan.target.input);
    if (now.real !== plan.target.real || !(await isOpenAt(file, plan.target.real))) {
      throw new StalePlanError(`"${plan.target.input}" changed while it was being opened`);
    }
    const { size } = file.stats;
    if (size > READ_TEXT_MAX_BYTES && !limit) {
      return { ok: false, error: `"${plan.target.input}" is ${size} bytes; read it in parts with line and limit` };
    }
    const text = (await file.handle.readFile()).toString('utf8');
    return { ok: true, output: window(text, line, limit) };
  } finally {
    await file.handle.close();
  }
}

/** ACP's window: from the 1-based `line`, at most `limit` lines. */
function window(text: string, line?: number, limit?: number): string {
  if (!line && limit === undefined) return text;
  const lines = text.split('\n');
  const from = Math.max(0, (line ?? 1) - 1);
  return lines.slice(from, limit === undefined ? undefined : from + limit).join('\n');
}
