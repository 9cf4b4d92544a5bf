/**
 * Workspace files that a repository's hooks commonly run, which a confined command may
 * change (they are ordinary files of the workspace): `package.json`'s scripts (a hook
 * that runs `npm run lint`) and `node_modules/.bin` (husky puts it first on PATH). The
 * hooks themselves are read-only (git-places.ts); what they run cannot be, or no install
 * would work. So a command's result names the ones it changed, for the model and the
 * record: the person's next commit runs them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Each watched file (relative path) with a stamp of what it is now. */
export type HookInputs = Map<string, string>;

const PACKAGE_JSON = 'package.json';
const BIN = path.join('node_modules', '.bin');
/** A bin folder this large is stamped as a whole: the work stays bounded. */
const BIN_MAX_ENTRIES = 10_000;

export async function hookInputsOf(workspace: string): Promise<HookInputs> {
  const inputs: HookInputs = new Map();
  const pkg = await stampOf(path.join(workspace, PACKAGE_JSON));
  if (pkg) inputs.set(PACKAGE_JSON, pkg);
  const bin = path.join(workspace, BIN);
  const names = await fs.readdir(bin).catch(() => [] as string[]);
  if (names.length > BIN_MAX_ENTRIES) {
    inputs.set(BIN, (await stampOf(bin)) ?? '');
    return inputs;
  }
  for (const name of names) {
    const stamp = await stampOf(path.join(bin, name));
    if (stamp) inputs.set(path.join(BIN, name), stamp);
  }
  return inputs;
}

/**
 * What changed between the two (made, changed or removed), in order. `package.json` counts
 * when it has scripts before or after: without any, no hook runs it.
 */
export async function changedHookInputs(workspace: string, before: HookInputs, after: HookInputs): Promise<string[]> {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changed = names.filter((name) => before.get(name) !== after.get(name));
  if (changed.includes(PACKAGE_JSON) && !(await hasScripts(path.join(workspace, PACKAGE_JSON)))) {
    return changed.filter((name) => name !== PACKAGE_JSON);
  }
  return changed;
}

/** The line for the model, or null when none changed. */
export function hookInputsLine(changed: readonly string[]): string | null {
  if (changed.length === 0) return null;
  const shown = changed.slice(0, 10).join(', ') + (changed.length > 10 ? ` and ${changed.length - 10} more` : '');
  return `note: this command changed ${shown}, which this repository's git hooks may run at the user's next commit; say so in your answer.`;
}

async function stampOf(file: string): Promise<string | null> {
  try {
    const st = await fs.lstat(file);
    const target = st.isSymbolicLink() ? await fs.readlink(file) : '';
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.mode}:${target}`;
  } catch {
    return null;
  }
}

async function hasScripts(file: string): Promise<boolean> {
  try {
    const parsed: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    const scripts = (parsed as { scripts?: unknown } | null)?.scripts;
    return typeof scripts === 'object' && scripts !== null && Object.keys(scripts).length > 0;
  } catch {
    return true; // not JSON now: a hook may still try to run it, so it is named
  }
}
