/**
 * What any tool is to the model and to the model's context, with no tool in it: its
 * name, its words, its arguments' schema, and what its result holds. It sits below both
 * the tools (whose definitions extend it) and the context (which folds results by it), so
 * the context names no tool room.
 */
import type { JSONSchema7 } from 'ai';
import type { z } from 'zod';

/**
 * What a call's result holds, said by the tool itself so the model's context never
 * names tools: which file the call names and what it did with it (for a summary's list
 * of files), and whether seeing a hidden result again asks the user again.
 */
export interface ResultHolds {
  /** The file in the call's `path` argument and what was done with it; `defaultPath` when the call may leave it out. */
  file?: { how: 'read' | 'listed' | 'searched' | 'written' | 'edited'; defaultPath?: string };
  /** A command's output: seeing it again means running the command again, which asks the user again. */
  commandOutput?: true;
}

/** A tool as the model is shown it: its name, its words and its arguments' schema. */
export interface ToolShown<A = Record<string, unknown>> {
  name: string;
  /** Written for the model: what it does, its limits, how to page. */
  description: string;
  /** A strict zod object: unknown fields are errors. */
  schema: z.ZodType<A>;
  /** The schema as the model is shown it, when it is not made from `schema` (an MCP tool's own). */
  inputSchema?: JSONSchema7;
  holds?: ResultHolds;
}
