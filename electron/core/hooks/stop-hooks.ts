/**
 * Stop hooks: argvs listed in the workspace's `.gatehouse/settings.json` under
 * `hooks.stop`. They are read through the workspace's path rules, so a settings file
 * that links out of the workspace is not trusted.
 */
import { promises as fs } from 'node:fs';
import { z } from 'zod';
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
  let text: string;
  try {
    const target = await workspace.resolve(WORKSPACE_SETTINGS);
    if (!target.exists) return { ok: true, hooks: [] };
    text = await fs.readFile(target.real, 'utf8');
  } catch (err) {
    return { ok: false, problem: `cannot read ${WORKSPACE_SETTINGS}: ${(err as Error).message}` };
  }
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
