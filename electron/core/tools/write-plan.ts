/**
 * The plan half of the write path shared by write_file and search_replace: the bytes on
 * disk now, the proposal, its size limit and the digest the gate keeps.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { REPLACE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../shared/limits.js';
import { NotAFileError } from '../paths/regular-file.js';
import type { ResolvedPath } from '../paths/workspace.js';
import { FileTooLargeError, readCurrentFile } from './current-file.js';
import { digestOf } from './digest.js';
import { ToolError, type WritePlan, type WriteToolName } from './types.js';

/** The file's current bytes, or null when it does not exist yet and could be created. */
export async function readBefore(target: ResolvedPath, shown: string): Promise<Buffer | null> {
  try {
    const current = await readCurrentFile(target.real, REPLACE_MAX_BYTES);
    if (current !== null) return current.bytes;
  } catch (err) {
    if (err instanceof NotAFileError) throw new ToolError(`cannot write "${shown}": ${err.message}`);
    if (err instanceof FileTooLargeError) {
      throw new ToolError(
        `cannot write "${shown}": it is ${err.size} bytes, and an existing file is replaced only up to ${REPLACE_MAX_BYTES} bytes (8 MiB), since its diff could not be shown on a card`,
      );
    }
    throw err;
  }
  await checkCreatable(target.real, shown);
  return null;
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

/** Builds the plan, refusing a result over WRITE_MAX_BYTES (exactly the limit is fine). */
export function makeWritePlan(
  tool: WriteToolName,
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
  return { kind: 'write', tool, target, before, after, digest: digestOf(before), args };
}
