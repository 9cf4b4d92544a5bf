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
import { LONG_TIMEOUT_MS, QUICK_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import { shadowConfigArgs, shadowEnv } from './shadow-git-env.js';

const PARALLEL = 64;

export interface RestoreRoom {
  /** Deletes these files (relative paths), then these folders where empty, in the order given. */
  remove(files: readonly string[], folders: readonly string[]): Promise<void>;
  /** Writes every file of the index `indexFile` (in the scratch folder) into the workspace. */
  checkout(indexFile: string): Promise<void>;
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
    async remove(files, folders) {
      for (let i = 0; i < files.length; i += PARALLEL) {
        await Promise.all(files.slice(i, i + PARALLEL).map((p) => unlink(path.join(root, p))));
      }
      for (const folder of folders) await rmdir(path.join(root, folder)).catch(() => undefined); // only if empty
    },
    async checkout(indexFile) {
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
 * number of paths, any bytes in them but NUL); the folders only where empty, quietly.
 */
const REMOVE_SCRIPT = 'xargs -0 -r -a "$0" rm -f -- || exit; xargs -0 -r -a "$1" rmdir -- 2>/dev/null; exit 0';

function confinedRoom(shadow: ShadowGit, view: Confine, scratch: string): RestoreRoom {
  const root = shadow.workspaceRoot;
  const run = (what: string, argv: string[], declaredEnv: Record<string, string>, timeoutMs: number) =>
    runToEnd(
      { argv, cwd: root, env: { PATH: process.env.PATH }, declaredEnv, timeoutMs, streamMaxBytes: 64 * 1024 },
      view,
    ).then((outcome) => failed(what, argv, outcome));
  return {
    async remove(files, folders) {
      const lists = [path.join(scratch, 'remove-files'), path.join(scratch, 'remove-folders')];
      await writeFile(lists[0] as string, nulList(files));
      await writeFile(lists[1] as string, nulList(folders));
      await run(
        'delete the files to restore',
        ['sh', '-c', REMOVE_SCRIPT, ...lists],
        { LC_ALL: 'C' },
        QUICK_TIMEOUT_MS,
      );
    },
    async checkout(indexFile) {
      const {
        PATH: _path,
        HOME: _home,
        ...env
      } = shadowEnv({
        gitDir: shadow.layout.repo,
        home: shadow.layout.storeDir,
        workTree: root,
        indexFile,
      });
      const argv = [shadow.git, ...shadowConfigArgs({}), 'checkout-index', '--all', '--force'];
      await run('write the restored files', argv, definedOnly(env), LONG_TIMEOUT_MS);
    },
  };
}

function failed(what: string, argv: readonly string[], outcome: RunOutcome): void {
  if (outcome.exitCode === 0) return;
  const how = outcome.timedOut
    ? 'it took too long'
    : outcome.exitCode === null
      ? `it was stopped by ${outcome.signal ?? 'a signal'}`
      : `${path.basename(argv[0] ?? '')} exited with ${outcome.exitCode}`;
  const said = outcome.stderr.text.trim();
  throw new GitError(`could not ${what}: ${how}${said ? `: ${said}` : ''}`);
}

function nulList(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
