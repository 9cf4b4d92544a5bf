/**
 * How the shadow repository's git is kept apart from the person's setup: an environment
 * built from scratch (no inherited GIT_* variable, no system or global config, no system
 * attributes, HOME in the store) and the settings every command gets on its command line,
 * so nothing the person or the workspace configured can run a program (hooks, fsmonitor,
 * filters, external diffs) or change bytes on their way in or out.
 */

/** Who the snapshots' commits are by: fixed, so no config is needed and none is read. */
const IDENTITY = { name: 'Gatehouse checkpoints', email: 'checkpoints@gatehouse.invalid' };

export interface ShadowPlaces {
  /** The git dir: the store's repository, or one session's worktree dir inside it. */
  gitDir: string;
  /** The workspace root, for the commands that read or write files. */
  workTree?: string;
  /** A temporary index (restore); otherwise the git dir's own. */
  indexFile?: string;
  /** The store folder, HOME for git, so nothing under the person's home is read. */
  home: string;
  /** The person's `.git/info/exclude`, when the workspace has one to honour. */
  excludesFile?: string;
}

export function shadowEnv(places: ShadowPlaces): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(process.env.SYSTEMROOT ? { SYSTEMROOT: process.env.SYSTEMROOT } : {}), // Windows needs it to start anything
    HOME: places.home,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    // Paths handed to git are file names, never patterns: a file called `*` means itself.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_DIR: places.gitDir,
    ...(places.workTree ? { GIT_WORK_TREE: places.workTree } : {}),
    ...(places.indexFile ? { GIT_INDEX_FILE: places.indexFile } : {}),
    // glibc gives freed memory back at once, so each file git hashes grew and shrank the heap
    // (a zlib state each): 20k files took 21 s here, 1.7 s with the heap kept. Ignored elsewhere.
    GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=134217728:glibc.malloc.top_pad=16777216',
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
  };
}

/** `-c` settings for every command, ahead of its name. */
export function shadowConfigArgs(places: Pick<ShadowPlaces, 'excludesFile'>): string[] {
  const settings = [
    'core.bare=false',
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    'core.autocrlf=false',
    'core.safecrlf=false',
    'core.symlinks=true',
    'core.filemode=true',
    'core.ignoreCase=false',
    'core.quotePath=false',
    'core.logAllRefUpdates=false',
    'core.splitIndex=false',
    'core.sparseCheckout=false',
    'core.untrackedCache=true',
    'core.attributesFile=/dev/null',
    `core.excludesFile=${places.excludesFile ?? '/dev/null'}`,
    'core.pager=cat',
    'commit.gpgSign=false',
    'gc.auto=0',
    'maintenance.auto=false',
    'status.renames=false',
    'status.showUntrackedFiles=all',
    'diff.renames=false',
    'diff.noprefix=false',
    'diff.mnemonicPrefix=false',
    'color.ui=false',
    'submodule.recurse=false',
    'safe.directory=*',
  ];
  return settings.flatMap((s) => ['-c', s]);
}

/**
 * The shadow repository's `info/attributes`, which outranks every `.gitattributes` in the
 * workspace: no line-ending or encoding conversion, no filter, no ident expansion, so a file
 * is stored and restored byte for byte; diffs and deltas decided by content alone.
 */
export const SHADOW_ATTRIBUTES = '* -text -filter -ident !eol !working-tree-encoding !diff !delta !merge\n';
