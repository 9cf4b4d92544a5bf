/**
 * An MCP server's tool as an ordinary tool definition (DESIGN: MCP servers), so the gate,
 * the grants, the log and the cards treat it like any other: planning checks the
 * arguments against the tool's own JSON Schema and builds the card (with the fingerprint
 * the grant binds); executing calls the server, with a timeout, and reads its result.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import type { McpCardBody, McpToolShape } from '../../../shared/cards.js';
import { MCP_ARGS_MAX_BYTES } from '../../../shared/limits.js';
import { ToolError, type McpPlan, type Plan, type ToolDef, type ToolResult } from '../tools/tool-def.js';
import { callFingerprint, canonical, toolFingerprint } from './fingerprint.js';
import { toolResultOf } from './mcp-result.js';
import type { ServerConnection } from './server-connection.js';

export interface McpToolSource {
  server: string;
  serverFingerprint: string;
  connection: ServerConnection;
  /** What the person last allowed of this tool (from the log), to show a change. */
  allowedShape(tool: string): McpToolShape | undefined;
  /** The call failed because the server is gone: the session marks it so. */
  onLost(): void;
  /** MCP_CALL_TIMEOUT_MS unless a test needs it shorter. */
  callTimeoutMs: number;
}

const argsSchema = z.record(z.string(), z.unknown(), {
  error: "the arguments must be a JSON object, as the tool's input schema describes",
});

const validator = new AjvJsonSchemaValidator();

export function mcpToolDef(modelName: string, listed: Tool, source: McpToolSource): ToolDef {
  return {
    name: modelName,
    description: listed.description ?? '',
    schema: argsSchema,
    inputSchema: listed.inputSchema as JSONSchema7,
    async plan(args): Promise<Plan> {
      // The tool as the server lists it now, not as when this definition was made: a
      // list_changed may have arrived since, and the card must show (and pin) the tool as it is.
      await source.connection.settled();
      const tool = source.connection.tools.find((t) => t.name === listed.name);
      if (!tool) throw new ToolError(`${modelName} is no longer offered by the MCP server "${source.server}"`);
      const shape: McpToolShape = { description: tool.description ?? '', inputSchema: tool.inputSchema };
      const toolFp = fingerprintOf(tool, tool.name, shape);
      const problem = argsCheck(tool.inputSchema)(args);
      if (problem) throw new ToolError(`invalid arguments for ${modelName}: ${problem}`);
      const argsJson = JSON.stringify(args, null, 2);
      if (Buffer.byteLength(argsJson) > MCP_ARGS_MAX_BYTES) {
        throw new ToolError(
          `the arguments of ${modelName} are ${Buffer.byteLength(argsJson)} bytes; an MCP call may carry at most ${MCP_ARGS_MAX_BYTES}, so the user can read what is sent`,
        );
      }
      const allowed = source.allowedShape(modelName);
      const body: McpCardBody = {
        kind: 'mcp',
        tool: modelName,
        server: source.server,
        name: tool.name,
        description: shape.description,
        inputSchema: shape.inputSchema,
        argsJson,
        argsCanonical: canonical(args),
        ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
        fingerprint: callFingerprint(source.serverFingerprint, toolFp),
        ...(allowed && fingerprintOf(allowed, tool.name, allowed) !== toolFp ? { changedFrom: allowed } : {}),
      };
      return { kind: 'mcp', tool: modelName, body, args } satisfies McpPlan;
    },
    async execute(plan, _ctx, exec): Promise<ToolResult> {
      if (plan.kind !== 'mcp' || plan.tool !== modelName)
        throw new Error(`${modelName} cannot execute a ${plan.tool} plan`);
      try {
        const result = await source.connection.call(plan.body.name, plan.args, {
          signal: exec.signal,
          timeoutMs: source.callTimeoutMs,
        });
        return toolResultOf(result, source.server);
      } catch (err) {
        return { ok: false, error: callFailure(source, err) };
      }
    },
  };
}

/** A tool's fingerprint, hashed once per listed tool (or allowed shape) rather than on every call. */
const fingerprints = new WeakMap<object, string>();

function fingerprintOf(key: object, name: string, shape: McpToolShape): string {
  let fp = fingerprints.get(key);
  if (fp === undefined) {
    fp = toolFingerprint(name, shape);
    fingerprints.set(key, fp);
  }
  return fp;
}

/** Compiled once per listed schema (a new listing brings new objects). */
const checks = new WeakMap<object, (args: unknown) => string | null>();

/** The tool's input schema as a check; a schema the validator cannot compile leaves the checking to the server. */
function argsCheck(schema: Tool['inputSchema']): (args: unknown) => string | null {
  let check = checks.get(schema);
  if (!check) {
    check = compile(schema);
    checks.set(schema, check);
  }
  return check;
}

function compile(schema: Tool['inputSchema']): (args: unknown) => string | null {
  try {
    const validate = validator.getValidator(schema as never);
    return (args) => {
      const r = validate(args);
      return r.valid ? null : (r.errorMessage ?? 'they do not match its input schema');
    };
  } catch {
    return () => null;
  }
}

function callFailure(source: McpToolSource, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const closed = source.connection.closed;
  if (closed) {
    source.onLost();
    return `the MCP server "${source.server}" stopped during the call (${closed}). Its tools are unavailable until it starts again (with the user's next message, or Restart in Settings).`;
  }
  if (/timed out|timeout/i.test(message)) {
    return `the MCP server "${source.server}" did not answer within ${source.callTimeoutMs / 1000} s; the call was cancelled`;
  }
  return `the MCP server "${source.server}" could not complete the call: ${message}`;
}
