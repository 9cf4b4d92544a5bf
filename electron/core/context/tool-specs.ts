/**
 * The tools as the model sees them, converted to JSON Schema once per definition (shared
 * by every session) rather than by the SDK on every step. The SDK then only checks JSON
 * syntax and tool names; the arguments are validated by the tools' own zod schemas,
 * whose errors name each field. The order is fixed, so the tool block at the head of
 * every request stays byte for byte the same (and cached).
 */
import type { JSONSchema7 } from 'ai';
import { z } from 'zod';
import type { ToolSpec } from '../chat/sdk-tool-set.js';
import type { ToolShown } from '../tool-shape/tool-shown.js';

/**
 * One spec per definition for the whole process: the workspace and agent tools are
 * module constants, so every session shares their converted schemas instead of
 * converting (and keeping) a copy each.
 */
const specOf = new WeakMap<ToolShown, ToolSpec>();

export function toolSpecs(definitions: readonly ToolShown[]): Record<string, ToolSpec> {
  const tools: Record<string, ToolSpec> = {};
  for (const def of definitions) {
    let spec = specOf.get(def);
    if (!spec) {
      spec = Object.freeze({ description: def.description, inputSchema: def.inputSchema ?? toJsonSchema(def.schema) });
      specOf.set(def, spec);
    }
    tools[def.name] = spec;
  }
  return tools;
}

/** What one tool definition carries to the model, as text: for sizes and for the preview. */
export function toolText(name: string, spec: ToolSpec): string {
  return JSON.stringify({ name, description: spec.description, input_schema: spec.inputSchema });
}

function toJsonSchema(schema: z.ZodType): JSONSchema7 {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JSONSchema7 & { $schema?: string };
  return rest;
}
