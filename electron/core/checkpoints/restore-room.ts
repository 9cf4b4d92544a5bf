/**
 * Where a restore's writes and deletions run (SPEC §9, the app's own helpers). The checks
 * before them (restore-files.ts) look at each path with lstat, but a confined process that
 * keeps exchanging a folder `d` with a link `dl` → `~/.config/autostart` (renameat2 with
 * RENAME_EXCHANGE) can swap the link in between the check and the write: git, or unlink,
 * then follows it. So the writes and deletions run inside the sandbox's restore view
 * (sandbox/helper-view.ts): only the workspace and this restore's scratch folder are
 * writable, the store is read-only, the home is empty, and the workspace's git and app
 * places stay read-only, so a link swapped in leads nowhere outside, nor into `.git`.
 *
 * Nothing is frozen meanwhile: a long-lived confined process (a workspace MCP server) may
 * go on changing the workspace during a restore, but it could write there anyway; the
 * view bounds any race to what the racer can already reach. (Stopping it would race its
 * own forks, and a refusal would make undo fail whenever a server runs.)
 *
 * Where no sandbox can run, the restore acts as the app, as it did before: the command
 * cards there already say that commands are unconfined, so no confined racer exists.
 */
import { rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runToEnd, type RunOutcome } from '../process/command-run.js';
import type { Confine } from '../process/process-group.js';
import { restoreView } from '../sandbox/helper-view.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { GitError } from './git-run.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import { shadowConfigArgs, shadowEnv } from './shadow-git-env.js';

const PARALLEL = 64;

/** What a restore deletes, relative to the workspace: files, then folders where empty, in this order. */
export interface Deletions {
  files: string[];
  folders: string[];
}

export interface RestoreRoom {
  /** Deletes, then writes every file of the index `indexFile` (in the scratch folder), if one is given. */
  apply(deletions: Deletions, indexFile: string | null): Promise<void>;
}

export interface RoomPlaces {
  /** A fresh folder of this restore's own, in the store's tmp/: its index and lists. */
  scratch: string;
  /** The workspace paths the restore may write or delete, relative. */
  targets: readonly string[];
}

/** The room for one restore: the sandbox's view, or the app itself where no sandbox can run. */
export async function restoreRoom(
  shadow: ShadowGit,
  sandbox: Sandbox | undefined,
  places: RoomPlaces,
): Promise<RestoreRoom> {
  const view = sandbox
    ? await restoreView(sandbox, shadow.workspaceRoot, {
        store: shadow.layout.repo,
        scratch: places.scratch,
        programs: [shadow.git],
        targets: places.targets.map((p) => path.join(shadow.workspaceRoot, p)),
      })
    : null;
  return view ? confinedRoom(shadow, view, places.scratch) : appRoom(shadow);
}

/** As the app: each path was just looked at with lstat; only a racer could change it now, and none is confined here. */
function appRoom(shadow: ShadowGit): RestoreRoom {
  const root = shadow.workspaceRoot;
  return {
    async apply({ files, folders }, indexFile) {
      for (let i = 0; i < files.length; i += PARALLEL) {
        await Promise.all(files.slice(i, i + PARALLEL).map((p) => unlink(path.join(root, p))));
      }
      for (const folder of folders) await rmdir(path.join(root, folder)).catch(() => undefined); // only if empty
      if (indexFile === null) return;
      await shadow.run({
        what: 'write the restored files',
        args: ['checkout-index', '--all', '--force'],
        indexFile,
        workTree: true,
        timeoutMs: LONG_TIMEOUT_MS,
        locks: [`${indexFile}.lock`],
      });
    },
  };
}

/**
 * Deletes with rm and rmdir, reading NUL-separated lists from the scratch folder (any
 * number of paths, any bytes in them but NUL), the folders only where empty, quietly;
 * then runs the rest of its arguments (git writing the files), if any. One sandbox for all.
 */
const APPLY_SCRIPT = [
  'files=$1 folders=$2; shift 2',
  'if [ -s "$files" ]; then xargs -0 -a "$files" rm -f -- || exit 1; fi',
  'if [ -s "$folders" ]; then xargs -0 -a "$folders" rmdir -- 2>/dev/null; fi',
  'if [ $# -gt 0 ]; then exec "$@"; fi',
].join('\n');

function confinedRoom(shadow: ShadowGit, view: Confine, scratch: string): RestoreRoom {
  const root = shadow.workspaceRoot;
  return {
    async apply({ files, folders }, indexFile) {
      const write = indexFile === null ? null : checkoutCommand(shadow, indexFile);
      const deleting = files.length + folders.length > 0;
      if (!write && !deleting) return;
      const lists = [path.join(scratch, 'delete-files'), path.join(scratch, 'delete-folders')];
      if (deleting) {
        await writeFile(lists[0] as string, nulList(files));
        await writeFile(lists[1] as string, nulList(folders));
      }
      // Without deletions git runs alone: no shell, no rm, fewer programs to start.
      const argv = deleting ? ['sh', '-c', APPLY_SCRIPT, 'restore', ...lists, ...(write?.argv ?? [])] : write!.argv;
      const env = { LC_ALL: 'C', ...write?.env };
      const spec = { argv, cwd: root, env: { PATH: process.env.PATH }, declaredEnv: env, timeoutMs: LONG_TIMEOUT_MS };
      failed(
        write ? 'write the restored files' : 'delete the files to restore',
        await runToEnd({ ...spec, streamMaxBytes: 64 * 1024 }, view),
      );
    },
  };
}

/** git checkout-index with the store's isolated settings (shadow-git-env.ts); PATH and HOME are the sandbox's. */
function checkoutCommand(shadow: ShadowGit, indexFile: string): { argv: string[]; env: Record<string, string> } {
  const {
    PATH: _path,
    HOME: _home,
    ...env
  } = shadowEnv({
    gitDir: shadow.layout.repo,
    home: shadow.layout.storeDir,
    workTree: shadow.workspaceRoot,
    indexFile,
  });
  return {
    argv: [shadow.git, ...shadowConfigArgs({}), 'checkout-index', '--all', '--force'],
    env: definedOnly(env),
  };
}

function failed(what: string, outcome: RunOutcome): void {
  if (outcome.exitCode === 0) return;
  const how = outcome.timedOut
    ? 'it took too long'
    : outcome.exitCode === null
      ? `it was stopped by ${outcome.signal ?? 'a signal'}`
      : `it exited with ${outcome.exitCode}`;
  const said = outcome.stderr.text.trim();
  throw new GitError(`could not ${what}: ${how}${said ? `: ${said}` : ''}`);
}

function nulList(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
