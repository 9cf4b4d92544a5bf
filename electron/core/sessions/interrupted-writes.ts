/**
 * After the process was killed during a write: the write's temporary file may sit beside
 * its target, holding the proposal, in the user's folder. The target itself is whole (old
 * bytes or new, the rename is atomic); the temporary file is removed when the turn is
 * marked interrupted, so nothing but an allowed write is left changed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SessionEvent } from '../../../shared/events.js';
import type { Workspace } from '../paths/workspace.js';
import { pendingCalls } from '../runner/pending-calls.js';
import { isTempFileOf } from '../tools/atomic-write.js';

const WRITE_TOOLS = ['write_file', 'search_replace'];

export async function removeInterruptedTemps(
  events: readonly SessionEvent[],
  turnId: string,
  workspace: Workspace | null,
): Promise<void> {
  for (const call of pendingCalls(events, turnId)) {
    if (!WRITE_TOOLS.includes(call.tool)) continue;
    for (const target of await targetsOf(events, call, workspace)) await removeTempsBeside(target);
  }
}

/** Where the call's write was to land: what its cards showed, or (a grant, no card) its path now. */
async function targetsOf(
  events: readonly SessionEvent[],
  call: Extract<SessionEvent, { type: 'tool_call' }>,
  workspace: Workspace | null,
): Promise<string[]> {
  const shown = events.flatMap((e) =>
    e.type === 'card' && e.toolCallId === call.toolCallId && e.body.kind === 'write' ? [e.body.path] : [],
  );
  const arg = (call.args as { path?: unknown } | undefined)?.path;
  if (shown.length > 0 || !workspace || typeof arg !== 'string') return shown;
  const resolved = await workspace.resolve(arg).catch(() => null);
  return resolved ? [resolved.real] : [];
}

async function removeTempsBeside(target: string): Promise<void> {
  const dir = path.dirname(target);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => isTempFileOf(target, n))) {
    const file = path.join(dir, name);
    // unlink never follows a link; a folder of that name is left alone.
    const st = await fs.lstat(file).catch(() => null);
    if (st?.isFile()) await fs.unlink(file).catch(() => undefined);
  }
}
