/**
 * read_file (SPEC §2): up to 32 KiB of text from a byte offset or a 1-based line, read
 * through a file descriptor so a huge file is never loaded whole.
 */
import type { promises as fs } from 'node:fs';
import { z } from 'zod';
import { BINARY_SNIFF_BYTES, READ_MAX_BYTES } from '../../../shared/limits.js';
import { readAt } from '../paths/byte-reads.js';
import { isOpenAt, NotAFileError, openRegularFile, type OpenFile } from '../paths/regular-file.js';
import { looksBinary } from './binary.js';
import { findLineStart } from './line-start.js';
import { readPlanFor } from './plan-kind.js';
import { windowFromLine, windowFromOffset, windowLength, type TextWindow } from './text-window.js';
import { recheckTarget, resolveExisting, shownPath } from './tool-path.js';
import { StalePlanError, ToolError, type Plan, type ToolContext, type ToolDef, type ToolResult } from './tool-def.js';

export const readFileArgsSchema = z
  .strictObject({
    path: z.string().min(1, 'must be a non-empty path'),
    offset: z.number().int().min(0).optional(),
    line: z.number().int().min(1).optional(),
  })
  .refine((a) => a.offset === undefined || a.line === undefined, {
    message: 'give either "offset" or "line", not both',
    path: ['line'],
  });

export type ReadFileArgs = z.infer<typeof readFileArgsSchema>;

const KIB = READ_MAX_BYTES / 1024;

const DESCRIPTION = `Read a text file.
- path: relative to the workspace (or absolute).
- line: the 1-based line to start at (default 1). Returns whole lines, up to ${KIB} KiB.
- offset: alternatively, the 0-based byte offset to start at. Returns up to ${KIB} KiB, never splitting a character.
- When the file has more, the result ends with a note saying exactly how to continue: call again with the line=N or offset=N it gives. A single line longer than ${KIB} KiB is cut, and the note gives the offset to continue from.
- Binary files (a NUL byte in the first ${BINARY_SNIFF_BYTES / 1024} KiB) are refused. Use list_dir for folders and grep to find where something is.`;

export const readFileTool: ToolDef<ReadFileArgs> = {
  name: 'read_file',
  holds: { file: { how: 'read' } },
  reaches: 'read',
  description: DESCRIPTION,
  schema: readFileArgsSchema,
  plan: planReadFile,
  execute: executeReadFile,
};

async function planReadFile(args: ReadFileArgs, ctx: ToolContext): Promise<Plan> {
  const { target, shown, stats } = await resolveExisting(ctx, args.path, 'read_file');
  if (stats.isDirectory()) throw new ToolError(`read_file: "${shown}" is a folder; use list_dir`);
  if (!stats.isFile()) throw new ToolError(`read_file: "${shown}" is not a regular file`);
  return { kind: 'read', tool: 'read_file', target, args };
}

async function executeReadFile(p: Plan, ctx: ToolContext): Promise<ToolResult> {
  const plan = readPlanFor(p, 'read_file');
  const shown = shownPath(ctx, plan.target);
  const file = await openPlanned(plan.target.real, plan.target.input, shown);
  try {
    // The path may have been swapped since it was planned (a link put in at the leaf is
    // refused by the open; one put in higher up is not): it must still resolve as planned,
    // and the open file must be the one there, or the answer would be about a file nobody
    // approved of. Checked once, after the open, since only what was opened is read.
    await recheckTarget(ctx, plan.target);
    // The read runs alongside the last check, one round trip instead of two: the fstat has
    // shown a regular file, so reading it has no effect, and the check's verdict is taken
    // before the read's answer (or its error, which can tell the file's size) can leave.
    const [openAt, text] = await Promise.allSettled([
      isOpenAt(file, plan.target.real),
      readText(file, plan.args as ReadFileArgs, shown),
    ]);
    if (openAt.status === 'rejected') throw openAt.reason;
    if (!openAt.value) throw new StalePlanError(`"${plan.target.input}" changed while it was being opened`);
    if (text.status === 'rejected') throw text.reason;
    return text.value;
  } finally {
    await file.handle.close();
  }
}

/** Opens the planned file; it was a regular file when planned, so anything else now is a change. */
async function openPlanned(real: string, input: string, shown: string): Promise<OpenFile> {
  let file: OpenFile | null;
  try {
    file = await openRegularFile(real);
  } catch (err) {
    if (err instanceof NotAFileError)
      throw new StalePlanError(`"${input}" changed since it was planned: ${err.message}`);
    throw err;
  }
  if (file === null) throw new ToolError(`read_file: "${shown}" does not exist any more`);
  return file;
}

// Each await below is one file-system round trip, and they are what a read costs, so a
// window that starts at byte 0 doubles as the binary sniff.
async function readText(file: OpenFile, args: ReadFileArgs, shown: string): Promise<ToolResult> {
  const { handle, stats: st } = file;
  const size = st.size;
  const fromStart = args.offset === 0 || (args.offset === undefined && (args.line ?? 1) === 1);
  const first = fromStart ? await readAt(handle, 0, windowLength(size, 0)) : undefined;
  const sniff = first ?? (await readAt(handle, 0, Math.min(BINARY_SNIFF_BYTES, size)));
  if (looksBinary(sniff)) {
    return {
      ok: false,
      error: `read_file: "${shown}" looks binary (a NUL byte in its first 8 KiB); it is ${size} bytes`,
    };
  }
  const window =
    args.offset !== undefined
      ? await offsetWindow(handle, size, args.offset, first, shown)
      : await lineWindow(handle, size, args.line ?? 1, first, shown);
  return {
    ok: true,
    output: window.text + continuationNote(window, size),
    details: windowDetails(shown, size, window),
  };
}

/** `first` is the window at byte 0 when it was already read. */
async function offsetWindow(
  handle: fs.FileHandle,
  size: number,
  offset: number,
  first: Buffer | undefined,
  shown: string,
): Promise<TextWindow> {
  if (offset > size) throw new ToolError(`read_file: offset ${offset} is past the end of "${shown}" (${size} bytes)`);
  const raw = first ?? (await readAt(handle, offset, windowLength(size, offset)));
  return windowFromOffset(raw, size, offset);
}

async function lineWindow(
  handle: fs.FileHandle,
  size: number,
  line: number,
  first: Buffer | undefined,
  shown: string,
): Promise<TextWindow> {
  const start = await findLineStart(handle, size, line);
  if (!start.found) {
    throw new ToolError(`read_file: line ${line} is past the end of "${shown}" (${start.lineCount} lines)`);
  }
  const raw = first ?? (await readAt(handle, start.offset, windowLength(size, start.offset)));
  return windowFromLine(raw, size, line, start.offset);
}

/** The note after the text: only when more follows, so a whole file reads as itself. */
function continuationNote(window: TextWindow, size: number): string {
  if (window.next === undefined)
    return window.end === window.start ? `[read_file: nothing to read; the file is ${size} bytes]` : '';
  const what = window.lines
    ? `lines ${window.lines.first}-${window.lines.last}`
    : `bytes ${window.start}-${window.end}`;
  const how = 'line' in window.next ? `line=${window.next.line}` : `offset=${window.next.offset}`;
  // Always exactly one newline before the note, so the text above it is unambiguous.
  return `\n[read_file: showed ${what} of ${size} bytes; more follows: call read_file again with ${how}]`;
}

function windowDetails(shown: string, size: number, window: TextWindow): Record<string, unknown> {
  return { path: shown, size, start: window.start, end: window.end, lines: window.lines, next: window.next };
}
