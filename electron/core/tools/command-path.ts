/**
 * Which file a bare program name runs (SPEC §11). On Windows, spawn looks a bare argv[0]
 * up in the working folder before PATH, so approving `git status` in a repository that
 * ships a git.exe would run that file. There the name is resolved on PATH here, never in
 * the workspace, and spawn gets the absolute path. A name with a path separator is a path
 * the card showed, and is left as it is. Elsewhere spawn searches PATH only, as is.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CommandStartError } from '../process/start-error.js';

export interface CommandLookup {
  platform: NodeJS.Platform;
  /** The command's own environment: its PATH and PATHEXT are the ones searched. */
  env: Readonly<Record<string, string | undefined>>;
  /** Whether a regular file exists at an absolute path; injectable for tests. */
  isFile?: (file: string) => Promise<boolean>;
}

/** What Windows uses when PATHEXT is unset. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** What spawn can start without a shell; a .bat or .cmd needs cmd.exe. */
const SPAWNABLE = new Set(['.com', '.exe']);

/** argv[0] as spawn should get it: on Windows an absolute path found on PATH. */
export async function commandPath(program: string, lookup: CommandLookup): Promise<string> {
  if (lookup.platform !== 'win32' || /[\\/:]/.test(program)) return program;
  const isFile = lookup.isFile ?? regularFile;
  let batch: string | null = null;
  for (const dir of searchDirs(lookup.env)) {
    for (const candidate of candidates(program, lookup.env)) {
      const file = path.win32.join(dir, candidate);
      if (!(await isFile(file))) continue;
      if (SPAWNABLE.has(path.win32.extname(file).toLowerCase())) return file;
      batch ??= file;
    }
  }
  throw notFound(program, batch);
}

/** PATH's folders in order. Relative entries (".", "bin", empty) would mean the working folder: skipped. */
function searchDirs(env: CommandLookup['env']): string[] {
  return (envValue(env, 'PATH') ?? '')
    .split(';')
    .map((entry) => entry.trim().replace(/^"(.*)"$/, '$1'))
    .filter((entry) => /^(?:[a-zA-Z]:[\\/]|[\\/]{2})/.test(entry));
}

/** The name as given when it has an extension, then the name with each of PATHEXT's. */
function candidates(program: string, env: CommandLookup['env']): string[] {
  const extensions = (envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT)
    .split(';')
    .map((ext) => ext.trim())
    .filter((ext) => ext.startsWith('.'));
  // Lower case only for the look of the path shown in messages: Windows file names ignore case.
  const withExtensions = extensions.map((ext) => `${program}${ext.toLowerCase()}`);
  return path.win32.extname(program) ? [program, ...withExtensions] : withExtensions;
}

/** Windows environment names are case-insensitive: PATH is often spelled Path. */
function envValue(env: CommandLookup['env'], name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function notFound(program: string, batch: string | null): CommandStartError {
  if (batch !== null) {
    return new CommandStartError(
      // The suggestion names the file found, since cmd.exe would also look in the working folder first.
      `${program} is a batch file (${batch}), which Windows runs only through cmd.exe: run ["cmd", "/d", "/c", ${JSON.stringify(batch)}, …] instead`,
      'EINVAL',
    );
  }
  return new CommandStartError(
    `command not found: ${program} (looked on PATH only, never in the workspace; give a path to run a file there)`,
    'ENOENT',
  );
}

async function regularFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
}
