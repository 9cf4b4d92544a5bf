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
import { realpathSync } from 'node:fs';
import { rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ProcessGroup, type Confine } from '../process/process-group.js';
import { restoreView } from '../sandbox/helper-view.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { GitError } from './git-run.js';
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';
import { shadowConfigArgs, shadowEnv } from './shadow-git-env.js';

const PARALLEL = 64;
const STDERR_TAIL_BYTES = 4 * 1024;

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
  /** The workspace paths the restore may write or delete, relative (a read-only place holding one is left writable). */
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
        programs: [realOr(shadow.git)],
        targets: places.targets.map((p) => path.join(shadow.workspaceRoot, p)),
      })
    : null;
  return view ? confinedRoom(shadow, view, places.scratch) : appRoom(shadow);
}

/** A program's real path: a link in PATH (`/usr/local/bin/git` → its install) is shown where it lands. */
function realOr(program: string): string {
  try {
    return realpathSync(program);
  } catch {
    return program;
  }
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

/** Past this many bytes of quoted paths, the script reads its paths from lists rather than holding them. */
const INLINE_MAX_BYTES = 64 * 1024;

/**
 * The shell script that deletes (files with rm, then folders with rmdir, only where
 * empty, quietly), then runs the rest of its arguments (git writing the files), if any:
 * one sandbox for all. The paths are in the script, each single-quoted, so that only rm
 * and rmdir start; a long list is read instead, NUL-separated, from the scratch folder.
 */
async function deletionScript({ files, folders }: Deletions, scratch: string): Promise<string> {
  const inline = [
    ...(files.length > 0 ? [`rm -f -- ${files.map(quoted).join(' ')} || exit 1`] : []),
    ...(folders.length > 0 ? [`rmdir -- ${folders.map(quoted).join(' ')} 2>/dev/null`] : []),
  ];
  if (inline.reduce((n, line) => n + Buffer.byteLength(line), 0) <= INLINE_MAX_BYTES)
    return [...inline, EXEC_REST].join('\n');
  const lists = [path.join(scratch, 'delete-files'), path.join(scratch, 'delete-folders')] as const;
  await writeFile(lists[0], nulList(files));
  await writeFile(lists[1], nulList(folders));
  return [
    `if [ -s ${quoted(lists[0])} ]; then xargs -0 -a ${quoted(lists[0])} rm -f -- || exit 1; fi`,
    `if [ -s ${quoted(lists[1])} ]; then xargs -0 -a ${quoted(lists[1])} rmdir -- 2>/dev/null; fi`,
    EXEC_REST,
  ].join('\n');
}

const EXEC_REST = 'if [ $# -gt 0 ]; then exec "$@"; fi';

/** A word for sh: single quotes hold every byte as it is, a single quote is closed, escaped and reopened. */
function quoted(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function confinedRoom(shadow: ShadowGit, view: Confine, scratch: string): RestoreRoom {
  const root = shadow.workspaceRoot;
  return {
    async apply(deletions, indexFile) {
      const write = indexFile === null ? null : checkoutCommand(shadow, indexFile);
      const deleting = deletions.files.length + deletions.folders.length > 0;
      if (!write && !deleting) return;
      // Without deletions git runs alone: no shell, no rm, fewer programs to start.
      const argv = deleting
        ? ['sh', '-c', await deletionScript(deletions, scratch), 'restore', ...(write?.argv ?? [])]
        : write!.argv;
      const what = write ? 'write the restored files' : 'delete the files to restore';
      failed(what, await runInView(argv, { LC_ALL: 'C', ...write?.env }, root, view));
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

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stderr: string;
}

/**
 * One program in the view, to its end, through the process room. Its answer does not wait
 * for the sandbox's init to be reaped (it is dead or dying once the wrapper has exited and
 * the streams closed), only for what the sandbox made in the workspace to go.
 */
async function runInView(
  argv: string[],
  declaredEnv: Record<string, string>,
  cwd: string,
  view: Confine,
): Promise<Ended> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const group = await ProcessGroup.start({ argv, cwd, env, declaredEnv, stdin: 'ignore', confine: view });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void group.stop();
  }, LONG_TIMEOUT_MS);
  const stderr = tail(group.stderr, STDERR_TAIL_BYTES);
  group.stdout?.resume();
  try {
    const exit = await group.exited;
    await group.closed;
    return { ...exit, timedOut, stderr: stderr() };
  } finally {
    clearTimeout(timer);
    void group.settle();
    await group.release();
  }
}

function failed(what: string, ended: Ended): void {
  if (ended.code === 0) return;
  const how = ended.timedOut
    ? 'it took too long'
    : ended.code === null
      ? `it was stopped by ${ended.signal ?? 'a signal'}`
      : `it exited with ${ended.code}`;
  const said = ended.stderr.trim();
  throw new GitError(`could not ${what}: ${how}${said ? `: ${said}` : ''}`);
}

/** The last `keep` bytes a stream gave, as text (a program says what went wrong at the end). */
function tail(stream: Readable | null, keep: number): () => string {
  let held = Buffer.alloc(0);
  stream?.on('data', (chunk: Buffer) => {
    held = Buffer.concat([held, chunk]);
    if (held.length > keep * 2) held = held.subarray(held.length - keep);
  });
  return () => held.subarray(Math.max(0, held.length - keep)).toString('utf8');
}

function nulList(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
