/**
 * The plan half of the write path shared by write_file and search_replace: the bytes on
 * disk now, the proposal, its size limit and the digest the gate keeps.
 *
 * Both are text tools: a card can only show a text diff, so a binary file (a NUL byte in
 * its first 8 KiB, read_file's rule) is not edited and a proposal holding a NUL byte is
 * refused here, before a card could ask the user to approve bytes it cannot show.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BINARY_SNIFF_BYTES, REPLACE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../shared/limits.js';
import { NotAFileError } from '../paths/regular-file.js';
import type { ResolvedPath } from '../paths/workspace.js';
import { looksBinary } from './binary.js';
import { FileTooLargeError, readCurrentFile } from './current-file.js';
import { digestOf } from './digest.js';
import type { WriteTool } from '../../../shared/cards.js';
import { ToolError, type WritePlan } from './tool-def.js';

/** The file's current bytes, or null when it does not exist yet and could be created. */
export async function readBefore(target: ResolvedPath, shown: string): Promise<Buffer | null> {
  const current = await readCurrent(target, shown);
  if (current !== null) return textBefore(current, shown);
  await checkCreatable(target.real, shown);
  return null;
}

async function readCurrent(target: ResolvedPath, shown: string): Promise<Buffer | null> {
  try {
    return (await readCurrentFile(target.real, REPLACE_MAX_BYTES))?.bytes ?? null;
  } catch (err) {
    if (err instanceof NotAFileError) throw new ToolError(`cannot write "${shown}": ${err.message}`);
    if (err instanceof FileTooLargeError) {
      throw new ToolError(
        `cannot write "${shown}": it is ${err.size} bytes, and an existing file is replaced only up to ${REPLACE_MAX_BYTES} bytes (8 MiB), since its diff could not be shown on a card`,
      );
    }
    throw err;
  }
}

function textBefore(bytes: Buffer, shown: string): Buffer {
  if (!looksBinary(bytes)) return bytes;
  throw new ToolError(
    `cannot write "${shown}": it is a binary file (a NUL byte in its first ${BINARY_SNIFF_BYTES / 1024} KiB); write_file and search_replace edit text files only, since a card cannot show a binary change`,
  );
}

/** A new file needs its deepest existing ancestor to be a folder; mkdir would fail on a file. */
async function checkCreatable(real: string, shown: string): Promise<void> {
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    const st = await fs.stat(dir).catch(() => null);
    if (st !== null) {
      if (!st.isDirectory()) throw new ToolError(`cannot create "${shown}": ${dir} is a file, not a folder`);
      return;
    }
    if (path.dirname(dir) === dir) return;
  }
}

/**
 * Builds the plan, refusing a result over WRITE_MAX_BYTES (exactly the limit is fine) or
 * holding a NUL byte anywhere: the card's diff would hide it, or show nothing at all.
 */
export function makeWritePlan(
  tool: WriteTool,
  target: ResolvedPath,
  shown: string,
  before: Buffer | null,
  after: Buffer,
  args: Record<string, unknown>,
): WritePlan {
  if (after.length > WRITE_MAX_BYTES) {
    throw new ToolError(
      `${tool}: the resulting "${shown}" would be ${after.length} bytes; files are written only up to ${WRITE_MAX_BYTES} bytes (256 KiB)`,
    );
  }
  const nul = after.indexOf(0);
  if (nul !== -1) {
    throw new ToolError(
      `${tool}: the resulting "${shown}" would contain a NUL byte (at byte ${nul}); ${tool} writes text only, since a card cannot show binary content`,
    );
  }
  return { kind: 'write', tool, target, before, after, digest: digestOf(before), args };
}
