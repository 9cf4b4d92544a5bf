/**
 * search_replace (SPEC §2): replaces an exact string, then takes the write path. The
 * match works on bytes, so whatever else the file holds (invalid UTF-8, CRLF) is kept
 * exactly as it was.
 */
import { z } from 'zod';
import { REPLACE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../shared/limits.js';
import { AtomicWriter } from './atomic-write.js';
import { writePlanFor } from './plan-kind.js';
import { resolveToolPath, shownPath } from './tool-path.js';
import { ToolError, type Plan, type ToolContext, type ToolDef, type ToolResult, type WritePlan } from './tool-def.js';
import { commitWrite } from './write-commit.js';
import { makeWritePlan, readBefore } from './write-plan.js';

export const searchReplaceArgsSchema = z.strictObject({
  path: z.string().min(1, 'must be a non-empty path'),
  old: z.string().min(1, 'must be the non-empty text to replace'),
  new: z.string(),
  replace_all: z.boolean().optional(),
});

export type SearchReplaceArgs = z.infer<typeof searchReplaceArgsSchema>;

const DESCRIPTION = `Replace exact text in an existing file.
- old: the exact text to replace, character for character, including whitespace and indentation. It must occur exactly once in the file, unless replace_all is true; include enough surrounding lines to make it unique. Not a regular expression.
- new: the replacement text (may be empty, to delete).
- replace_all: replace every occurrence instead of requiring exactly one.
- The resulting file must be at most ${WRITE_MAX_BYTES} bytes (256 KiB), and a file over ${REPLACE_MAX_BYTES / 1024 / 1024} MiB cannot be edited.
- Text only: a binary file cannot be edited, and the result may not contain a NUL byte.
- To create a file, use write_file. The user sees a diff and approves each change.`;

export function createSearchReplaceTool(writer = new AtomicWriter()): ToolDef<SearchReplaceArgs> {
  return {
    name: 'search_replace',
    holds: { file: { how: 'edited' } },
    reaches: 'write',
    description: DESCRIPTION,
    schema: searchReplaceArgsSchema,
    plan: planSearchReplace,
    execute: (plan, ctx) => executeReplace(writePlanFor(plan, 'search_replace'), ctx, writer),
  };
}

export const searchReplaceTool = createSearchReplaceTool();

async function planSearchReplace(args: SearchReplaceArgs, ctx: ToolContext): Promise<Plan> {
  const target = await resolveToolPath(ctx, args.path);
  const shown = shownPath(ctx, target);
  if (args.old === args.new) throw new ToolError(`search_replace: "old" and "new" are the same; nothing would change`);
  const before = target.exists ? await readBefore(target, shown) : null;
  if (before === null) throw new ToolError(`search_replace: "${shown}" does not exist; use write_file to create it`);
  const after = replaceBytes(before, args, shown);
  return makeWritePlan('search_replace', target, shown, before, after, args);
}

function replaceBytes(before: Buffer, args: SearchReplaceArgs, shown: string): Buffer {
  const old = Buffer.from(args.old, 'utf8');
  const at = occurrences(before, old);
  if (at.length === 0) throw new ToolError(`search_replace: "old" was not found in "${shown}"`);
  if (at.length > 1 && args.replace_all !== true) {
    throw new ToolError(
      `search_replace: "old" was found ${at.length} times in "${shown}"; add surrounding lines to make it unique, or set replace_all`,
    );
  }
  const replacement = Buffer.from(args.new, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const index of at) {
    parts.push(before.subarray(from, index), replacement);
    from = index + old.length;
  }
  parts.push(before.subarray(from));
  return Buffer.concat(parts);
}

/** Non-overlapping occurrences, left to right, as String.prototype.replaceAll counts them. */
function occurrences(haystack: Buffer, needle: Buffer): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

async function executeReplace(plan: WritePlan, ctx: ToolContext, writer: AtomicWriter): Promise<ToolResult> {
  const outcome = await commitWrite(plan, ctx, writer);
  if (!outcome.ok) return outcome;
  const shown = shownPath(ctx, plan.target);
  const count = occurrences(plan.before ?? Buffer.alloc(0), Buffer.from(String(plan.args.old), 'utf8')).length;
  return {
    ok: true,
    output: `Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${shown} (now ${plan.after.length} bytes).`,
    details: { path: shown, replacements: count, bytes: plan.after.length },
  };
}
