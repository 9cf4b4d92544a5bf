/**
 * One agent's folder, `<root>/<id>/` (root: `<dataDir>/agents`, or the CI cache): `pkg/` is
 * its install, `home/` its private HOME with its own login. A new install is made beside,
 * in `pkg.new-<pid>-<random>`, and swapped in by rename only once it is complete and
 * checked, so a failed or interrupted install leaves the previous one as it was. A crash
 * between the two renames of a swap leaves `pkg.old-…` and no `pkg`: `recover` puts it back.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../shared/agents.js';
import { pidAlive } from '../process/pid-alive.js';
import type { AgentSpec } from './agent-spec.js';

export interface AgentFolders {
  /** `<root>/<id>` */
  dir: string;
  /** `<root>/<id>/pkg`: the npm prefix the agent is installed in. */
  prefix: string;
  /** `<root>/<id>/home`: its private HOME in the jail. */
  home: string;
}

/** What is installed: the adapter's version as its package.json says, and where. */
export interface InstalledAgent {
  version: string;
  prefix: string;
  /** The absolute path of the script run with node. */
  entryPath: string;
}

export function agentFolders(root: string, id: AgentId): AgentFolders {
  const dir = path.join(root, id);
  return { dir, prefix: path.join(dir, 'pkg'), home: path.join(dir, 'home') };
}

const NEW_MARK = 'pkg.new-';
const OLD_MARK = 'pkg.old-';

/** A fresh name beside `pkg` for an install being made (`new`) or one being replaced (`old`). */
export function besidePrefix(folders: AgentFolders, kind: 'new' | 'old'): string {
  const mark = kind === 'new' ? NEW_MARK : OLD_MARK;
  return path.join(folders.dir, `${mark}${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * The folder of the package that holds the entry, relative to the prefix:
 * `node_modules/@scope/name/dist/index.js` → `node_modules/@scope/name`.
 */
export function entryPackageDir(entry: string): string {
  const parts = entry.split('/');
  const at = parts.lastIndexOf('node_modules');
  const scoped = parts[at + 1]?.startsWith('@') ?? false;
  const end = at + (scoped ? 3 : 2);
  if (at < 0 || parts.length <= end) throw new Error(`the entry ${entry} is not a file inside node_modules/<package>/`);
  return parts.slice(0, end).join('/');
}

/** What `prefix` holds for `spec`: null unless its entry is a file and its package names a version. */
export async function installedAt(prefix: string, spec: AgentSpec): Promise<InstalledAgent | null> {
  const entryPath = path.join(prefix, spec.entry);
  try {
    if (!(await fs.stat(entryPath)).isFile()) return null;
    const manifest = path.join(prefix, entryPackageDir(spec.entry), 'package.json');
    const version = (JSON.parse(await fs.readFile(manifest, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? { version, prefix, entryPath } : null;
  } catch {
    return null;
  }
}

/** Puts the checked install `made` in place of `pkg`; the previous one stays if the swap fails. */
export async function swapIn(folders: AgentFolders, made: string): Promise<void> {
  const old = besidePrefix(folders, 'old');
  const hadOld = await exists(folders.prefix);
  if (hadOld) await fs.rename(folders.prefix, old);
  try {
    await fs.rename(made, folders.prefix);
  } catch (err) {
    if (hadOld) await fs.rename(old, folders.prefix);
    throw err;
  }
  if (hadOld) await fs.rm(old, { recursive: true, force: true });
}

/** Removes `pkg` whole: renamed aside first, so a removal cut short never leaves half an install as `pkg`. */
export async function removePrefix(folders: AgentFolders): Promise<void> {
  if (!(await exists(folders.prefix))) return;
  const old = besidePrefix(folders, 'old');
  await fs.rename(folders.prefix, old);
  await fs.rm(old, { recursive: true, force: true });
}

/**
 * Tidies what a crash left: an install being made by a process that is gone is removed; a
 * previous install set aside by a swap cut short is put back when no `pkg` took its place.
 * The caller makes sure no install of this agent runs in this process.
 */
export async function recover(folders: AgentFolders): Promise<void> {
  const names = await fs.readdir(folders.dir).catch(() => [] as string[]);
  // Another process (the CI script, a second app) may be installing this agent right now.
  const left = names.filter((n) => !byLiveOther(n));
  for (const name of left.filter((n) => n.startsWith(NEW_MARK))) {
    await fs.rm(path.join(folders.dir, name), { recursive: true, force: true });
  }
  const olds = left.filter((n) => n.startsWith(OLD_MARK));
  const first = olds[0];
  if (first !== undefined && !(await exists(folders.prefix))) {
    await fs.rename(path.join(folders.dir, first), folders.prefix);
    olds.shift();
  }
  for (const name of olds) await fs.rm(path.join(folders.dir, name), { recursive: true, force: true });
}

/** Whether `name` (`pkg.new-<pid>-…`, `pkg.old-<pid>-…`) belongs to another process still running. */
function byLiveOther(name: string): boolean {
  const pid = Number(/^pkg\.(?:new|old)-(\d+)-/.exec(name)?.[1]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid);
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
