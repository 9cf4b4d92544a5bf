/**
 * On Windows a bare argv[0] is found on PATH (with PATHEXT), never in the workspace, and
 * spawn gets the absolute path (SPEC §11). The file system, PATH, PATHEXT and the platform
 * are stand-ins, so this runs anywhere.
 */
import { describe, expect, it } from 'vitest';
import { commandPath, type CommandLookup } from '../../../../../electron/core/tools/command-path.js';
import { CommandStartError } from '../../../../../electron/core/process/start-error.js';
import { runCommand } from '../../../../../electron/core/tools/run.js';

const WORKSPACE = 'C:\\repo';
const GIT_DIR = 'C:\\Program Files\\Git\\cmd';
const SYSTEM = 'C:\\Windows\\System32';
const NODE_DIR = 'C:\\Program Files\\nodejs';

/** Windows' file system, case-insensitive, holding these files only. */
function files(...paths: string[]): CommandLookup['isFile'] {
  const known = new Set(paths.map((p) => p.toLowerCase()));
  return async (file) => known.has(file.toLowerCase());
}

/** A workspace that ships its own git.exe, and the real one on PATH. */
const disk = files(
  `${WORKSPACE}\\git.exe`,
  `${WORKSPACE}\\bin\\git.exe`,
  `${GIT_DIR}\\git.exe`,
  `${SYSTEM}\\cmd.exe`,
  `${SYSTEM}\\where.exe`,
  `${NODE_DIR}\\npm.cmd`,
  `${NODE_DIR}\\node.exe`,
);

function windows(env: Record<string, string>): CommandLookup {
  return { platform: 'win32', env, isFile: disk };
}

const PATH = [GIT_DIR, SYSTEM, NODE_DIR].join(';');

describe('commandPath on Windows', () => {
  it('runs git from PATH, not the git.exe the workspace ships', async () => {
    expect(await commandPath('git', windows({ PATH }))).toBe(`${GIT_DIR}\\git.exe`);
  });

  it('never searches the workspace: relative and empty PATH entries are skipped', async () => {
    const env = { PATH: `.;bin;;${WORKSPACE.slice(0, 2)}repo;${SYSTEM}` };
    await expect(commandPath('git', windows(env))).rejects.toThrow(CommandStartError);
    await expect(commandPath('git', windows(env))).rejects.toThrow(
      'command not found: git (looked on PATH only, never in the workspace',
    );
  });

  it('follows PATHEXT in order, and reads Path and PathExt in any case', async () => {
    expect(await commandPath('where', windows({ Path: PATH }))).toBe(`${SYSTEM}\\where.exe`);
    expect(await commandPath('node', windows({ Path: PATH, PathExt: '.COM;.EXE' }))).toBe(`${NODE_DIR}\\node.exe`);
    // Without .EXE in PATHEXT, node.exe is not a match for "node".
    await expect(commandPath('node', windows({ PATH, PATHEXT: '.COM;.BAT' }))).rejects.toThrow('command not found');
    const both = files('C:\\a\\tool.com', 'C:\\a\\tool.exe', 'C:\\b\\tool.com');
    const lookup2 = (env: Record<string, string>): CommandLookup => ({ platform: 'win32', env, isFile: both });
    expect(await commandPath('tool', lookup2({ PATH: 'C:\\a;C:\\b' }))).toBe('C:\\a\\tool.com');
    expect(await commandPath('tool', lookup2({ PATH: 'C:\\a;C:\\b', PATHEXT: '.EXE;.COM' }))).toBe('C:\\a\\tool.exe');
    // An earlier folder wins over a better extension in a later one.
    expect(await commandPath('tool', lookup2({ PATH: 'C:\\b;C:\\a', PATHEXT: '.EXE;.COM' }))).toBe('C:\\b\\tool.com');
  });

  it('takes a name with its extension as given', async () => {
    expect(await commandPath('git.exe', windows({ PATH }))).toBe(`${GIT_DIR}\\git.exe`);
    expect(await commandPath('GIT.EXE', windows({ PATH }))).toBe(`${GIT_DIR}\\GIT.EXE`);
  });

  it('accepts quoted PATH entries and UNC folders', async () => {
    const share = '\\\\server\\tools';
    const lookup: CommandLookup = {
      platform: 'win32',
      env: { PATH: `"${GIT_DIR}";${share}` },
      isFile: files(`${share}\\rg.exe`),
    };
    expect(await commandPath('rg', lookup)).toBe(`${share}\\rg.exe`);
    expect(await commandPath('git', { ...lookup, isFile: disk })).toBe(`${GIT_DIR}\\git.exe`);
  });

  it('leaves a name with a path separator alone: the card showed that path', async () => {
    for (const program of ['.\\git.exe', './git', 'bin\\git.exe', 'C:\\tools\\git.exe', 'C:git.exe']) {
      expect(await commandPath(program, windows({ PATH }))).toBe(program);
    }
  });

  it('says clearly when a name is missing, or only a batch file spawn cannot start', async () => {
    await expect(commandPath('cargo', windows({ PATH }))).rejects.toMatchObject({
      name: 'CommandStartError',
      code: 'ENOENT',
      message: expect.stringContaining('command not found: cargo'),
    });
    await expect(commandPath('npm', windows({ PATH }))).rejects.toMatchObject({
      code: 'EINVAL',
      message: expect.stringContaining(`npm is a batch file (${NODE_DIR}\\npm.cmd)`),
    });
  });

  it('finds nothing without a PATH', async () => {
    await expect(commandPath('git', windows({}))).rejects.toThrow('command not found: git');
  });
});

describe('commandPath elsewhere', () => {
  it('leaves argv[0] to spawn, which searches PATH only', async () => {
    const lookup: CommandLookup = { platform: 'linux', env: { PATH: '/usr/bin' }, isFile: disk };
    expect(await commandPath('git', lookup)).toBe('git');
  });
});

describe('runCommand on Windows', () => {
  it('looks argv[0] up before anything is spawned', async () => {
    const run = runCommand(['definitely-not-a-command-xyz', 'status'], {
      cwd: process.cwd(),
      env: { PATH: 'C:\\nowhere' },
      platform: 'win32',
    });
    await expect(run).rejects.toThrow('command not found: definitely-not-a-command-xyz (looked on PATH only');
  });
});
