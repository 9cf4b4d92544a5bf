/**
 * Stop hooks: argvs listed in the workspace's `.gatehouse/settings.json` under
 * `hooks.stop`. They are read through the workspace's path rules, so a settings file
 * that links out of the workspace is not trusted.
 */
import { z } from 'zod';
import { WORKSPACE_SETTINGS_MAX_BYTES } from '../../../shared/limits.js';
import { readRegularFile } from '../paths/regular-file.js';
import type { Workspace } from '../paths/workspace.js';

const settingsSchema = z.object({
  hooks: z
    .object({
      stop: z.array(z.array(z.string().min(1)).min(1, 'a hook argv needs at least one string')).optional(),
    })
    .optional(),
});

export const WORKSPACE_SETTINGS = '.gatehouse/settings.json';

export type StopHooks = { ok: true; hooks: string[][] } | { ok: false; problem: string };

export async function readStopHooks(workspace: Workspace): Promise<StopHooks> {
  const text = await settingsText(workspace);
  if (text === null) return { ok: true, hooks: [] };
  if (typeof text !== 'string') return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `${WORKSPACE_SETTINGS} is not valid JSON: ${(err as Error).message}` };
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${WORKSPACE_SETTINGS}: ${issue?.path.join('.') || 'root'}: ${issue?.message}` };
  }
  return { ok: true, hooks: parsed.data.hooks?.stop ?? [] };
}

/** The settings file's text, null when there is none, or why it cannot be used. */
async function settingsText(workspace: Workspace): Promise<string | null | { ok: false; problem: string }> {
  try {
    const target = await workspace.resolve(WORKSPACE_SETTINGS);
    // Through the no-hang reader: a FIFO or a huge file here must not stall every turn.
    // A link into the app's data folder (outside for the agent) is not the workspace's settings.
    const read =
      target.exists && target.inside ? await readRegularFile(target.real, WORKSPACE_SETTINGS_MAX_BYTES) : null;
    if (read === null) return null;
    if (!read.cut) return read.bytes.toString('utf8');
    return {
      ok: false,
      problem: `${WORKSPACE_SETTINGS} is ${read.size} bytes; it is read only up to ${WORKSPACE_SETTINGS_MAX_BYTES} bytes (1 MiB)`,
    };
  } catch (err) {
    return { ok: false, problem: `cannot read ${WORKSPACE_SETTINGS}: ${(err as Error).message}` };
  }
}
