/**
 * The tools offered to the model for one step, turned into an AI SDK tool set with no
 * `execute`: the SDK only parses and validates calls, and the runner runs them.
 */
import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';
import type { z } from 'zod';

export interface ToolSpec {
  /** Written for the model. */
  description: string;
  /**
   * A zod schema (calls are validated against it: a mismatch comes back as a tool-call
   * error), or a plain JSON Schema object (sent to the model, not validated here).
   */
  inputSchema: z.ZodType | JSONSchema7;
}

function isZod(schema: ToolSpec['inputSchema']): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && '~standard' in schema;
}

/** The SDK's tool per spec, made once: specs are shared across sessions and live as long as their definitions. */
const toolOf = new WeakMap<ToolSpec, ToolSet[string]>();

function sdkTool(spec: ToolSpec): ToolSet[string] {
  let made = toolOf.get(spec);
  if (!made) {
    made = tool({
      description: spec.description,
      inputSchema: isZod(spec.inputSchema) ? spec.inputSchema : jsonSchema(spec.inputSchema),
    });
    toolOf.set(spec, made);
  }
  return made;
}

export function toToolSet(specs: Readonly<Record<string, ToolSpec>>): ToolSet {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, sdkTool(spec)]));
}
