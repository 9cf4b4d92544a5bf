/**
 * write_file (SPEC §2): replaces a file's whole content, through a temporary file beside
 * it and a rename. The plan carries the bytes before and after, for the card's diff.
 */
import { z } from 'zod';
import { REPLACE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../shared/limits.js';
import { AtomicWriter } from './atomic-write.js';
import { writePlanFor } from './plan-kind.js';
import { resolveToolPath, shownPath } from './tool-path.js';
import type { Plan, ToolContext, ToolDef, ToolResult, WritePlan } from './tool-def.js';
import { commitWrite } from './write-commit.js';
import { makeWritePlan, readBefore } from './write-plan.js';

export const writeFileArgsSchema = z.strictObject({
  path: z.string().min(1, 'must be a non-empty path'),
  content: z.string(),
});

export type WriteFileArgs = z.infer<typeof writeFileArgsSchema>;

const DESCRIPTION = `Create a file, or replace a file's whole content.
- path: relative to the workspace (or absolute). Missing parent folders are created.
- content: the complete new content as text (UTF-8). At most ${WRITE_MAX_BYTES} bytes (256 KiB); a larger file is refused.
- To change part of an existing file prefer search_replace, which does not need the whole file.
- An existing file over ${REPLACE_MAX_BYTES / 1024 / 1024} MiB cannot be replaced.
- Text only: content with a NUL byte is refused, and so is replacing a binary file.
- The user sees a diff and approves each write. If the file changed on disk in the meantime, the write is refused: read it again and retry.`;

/** write_file with its own writer, so tests can inject a file system that fails. */
export function createWriteFileTool(writer = new AtomicWriter()): ToolDef<WriteFileArgs> {
  return {
    name: 'write_file',
    holds: { file: { how: 'written' } },
    reaches: 'write',
    description: DESCRIPTION,
    schema: writeFileArgsSchema,
    plan: planWriteFile,
    execute: (plan, ctx) => executeWrite(writePlanFor(plan, 'write_file'), ctx, writer),
  };
}

export const writeFileTool = createWriteFileTool();

async function planWriteFile(args: WriteFileArgs, ctx: ToolContext): Promise<Plan> {
  const target = await resolveToolPath(ctx, args.path);
  const shown = shownPath(ctx, target);
  const before = await readBefore(target, shown);
  return makeWritePlan('write_file', target, shown, before, Buffer.from(args.content, 'utf8'), args);
}

async function executeWrite(plan: WritePlan, ctx: ToolContext, writer: AtomicWriter): Promise<ToolResult> {
  const outcome = await commitWrite(plan, ctx, writer);
  if (!outcome.ok) return outcome;
  const shown = shownPath(ctx, plan.target);
  const was = plan.before === null ? 'new file' : `was ${plan.before.length} bytes`;
  return {
    ok: true,
    output: `${outcome.created ? 'Created' : 'Wrote'} ${shown} (${plan.after.length} bytes, ${was}).`,
    details: { path: shown, bytes: plan.after.length, created: outcome.created },
  };
}
