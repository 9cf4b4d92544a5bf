/**
 * The execute half of the write path: check that the world still matches the plan the
 * user approved (where the path lands, the digest of its bytes), then replace the file
 * atomically. Any mismatch is a StalePlanError and nothing is written.
 */
import path from 'node:path';
import { REPLACE_MAX_BYTES } from '../../../shared/limits.js';
import { NotAFileError } from '../paths/regular-file.js';
import type { AtomicWriter } from './atomic-write.js';
import { FileTooLargeError, readCurrentFile, type CurrentFile } from './current-file.js';
import { digestOf } from './digest.js';
import { recheckTarget } from './tool-path.js';
import { StalePlanError, type ToolContext, type WritePlan } from './tool-def.js';

/** A new file's mode, whatever the umask. */
const NEW_FILE_MODE = 0o644;

export type WriteOutcome = { ok: true; created: boolean } | { ok: false; error: string };

export async function commitWrite(plan: WritePlan, ctx: ToolContext, writer: AtomicWriter): Promise<WriteOutcome> {
  await recheckTarget(ctx, plan.target);
  const current = await currentOrStale(plan);
  if (digestOf(current?.bytes ?? null) !== plan.digest) {
    throw new StalePlanError(`"${plan.target.input}" changed on disk since the write was planned`);
  }
  try {
    await writer.write(plan.target.real, plan.after, {
      mode: current?.mode ?? NEW_FILE_MODE,
      ...(current ? { owner: { uid: current.uid, gid: current.gid } } : {}),
      // The folder the card named; a link swapped in on the way while writing is a stale plan.
      realDir: path.dirname(plan.target.real),
    });
  } catch (err) {
    if (err instanceof StalePlanError) throw err;
    return {
      ok: false,
      error: `could not write "${plan.target.input}": ${(err as Error).message}; the file is unchanged`,
    };
  }
  return { ok: true, created: current === null };
}

async function currentOrStale(plan: WritePlan): Promise<CurrentFile | null> {
  try {
    return await readCurrentFile(plan.target.real, REPLACE_MAX_BYTES);
  } catch (err) {
    // Planned within the limit, so over it now means it changed.
    if (err instanceof NotAFileError || err instanceof FileTooLargeError) {
      throw new StalePlanError(`"${plan.target.input}" changed since the write was planned: ${err.message}`);
    }
    throw err;
  }
}
