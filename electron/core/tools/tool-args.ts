/**
 * Checks a tool call's raw arguments against the tool's strict schema. The model reads
 * the error, so each problem names its field in plain words.
 */
import type { z } from 'zod';
import { ToolError, type ToolDef } from './tool-def.js';

/** Parses `raw` with the tool's schema, or throws a ToolError naming every field at fault. */
export function parseToolArgs<A>(def: ToolDef<A>, raw: unknown): A {
  const parsed = def.schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, raw));
  throw new ToolError(`${def.name}: invalid arguments: ${problems.join('; ')}`);
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((k) => `"${k}"`).join(', ');
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${names}`;
  }
  if (issue.path.length === 0) {
    return issue.code === 'invalid_type'
      ? `arguments must be a JSON object, ${received(issue.message)}`
      : issue.message;
  }
  const field = `"${issue.path.join('.')}"`;
  if (issue.code === 'invalid_type' && isMissing(raw, issue.path)) {
    return `${field} is required (${issue.expected})`;
  }
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

function received(message: string): string {
  return message.match(/received \w+/)?.[0] ?? message;
}

function isMissing(raw: unknown, fieldPath: readonly PropertyKey[]): boolean {
  let cursor: unknown = raw;
  for (const key of fieldPath) {
    if (cursor === null || typeof cursor !== 'object' || !Object.hasOwn(cursor, key)) return true;
    cursor = (cursor as Record<PropertyKey, unknown>)[key];
  }
  return cursor === undefined;
}
