/**
 * The app's one git door on a workspace: every git it starts gets the same rule (settings
 * that stop git running a program, an environment from scratch), a planted
 * `core.fsmonitor` never runs through it, and no other file of the core spawns git.
 */
import { execFile } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readWorkspaceGit,
  spawnWorkspaceGit,
  WORKSPACE_GIT_CONFIG,
} from '../../../../../electron/core/git/workspace-git.js';

const exec = promisify(execFile);

let dir: string;
let marker: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-workspace-git-'));
  marker = path.join(dir, 'RAN');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A "git" that writes its arguments and environment, one per line, where the test reads them. */
async function recordingGit(): Promise<{ git: string; seen: () => Promise<{ args: string[]; env: string[] }> }> {
  const git = path.join(dir, 'recording-git');
  const out = path.join(dir, 'seen');
  await fs.writeFile(git, `#!/bin/sh\nprintf '%s\\n' "$@" > '${out}.args'\nenv > '${out}.env'\n`, { mode: 0o755 });
  const lines = async (f: string) => (await fs.readFile(f, 'utf8')).split('\n').filter(Boolean);
  return { git, seen: async () => ({ args: await lines(`${out}.args`), env: await lines(`${out}.env`) }) };
}

describe('the git door', () => {
  it("puts its settings first, and builds the environment from scratch: none of the app's GIT_* or HOME", async () => {
    const { git, seen } = await recordingGit();
    const saved = { GIT_DIR: process.env.GIT_DIR, HOME: process.env.HOME };
    process.env.GIT_DIR = '/planted/git-dir';
    process.env.HOME = '/home/person';
    try {
      expect(await readWorkspaceGit(['status'], { git, timeoutMs: 10_000 })).toBe('');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const { args, env } = await seen();
    expect(args).toEqual([...WORKSPACE_GIT_CONFIG.flatMap((s) => ['-c', s]), 'status']);
    expect(args.slice(0, 6)).toEqual([
      '-c',
      'core.fsmonitor=false',
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'core.untrackedCache=false',
    ]);
    expect(env).toEqual(
      expect.arrayContaining(['GIT_CONFIG_NOSYSTEM=1', 'GIT_CONFIG_GLOBAL=/dev/null', 'LANG=C', 'HOME=/nonexistent']),
    );
    expect(env.filter((l) => l.startsWith('GIT_DIR=') || l.startsWith('HOME=/home/'))).toEqual([]);
  });

  it("keeps its own variables over a caller's", async () => {
    const { git, seen } = await recordingGit();
    const child = spawnWorkspaceGit({
      git,
      args: ['x'],
      env: { GIT_CONFIG_NOSYSTEM: '0', GIT_CONFIG_GLOBAL: '/home/person/.gitconfig', GIT_DIR: '/store' },
    });
    await new Promise((resolve) => child.on('close', resolve));
    const { env } = await seen();
    expect(env).toEqual(
      expect.arrayContaining(['GIT_CONFIG_NOSYSTEM=1', 'GIT_CONFIG_GLOBAL=/dev/null', 'GIT_DIR=/store']),
    );
  });

  it("never runs a repository's planted core.fsmonitor (which the plain git does run)", async () => {
    await exec('git', ['init', '-q', dir]);
    await fs.writeFile(path.join(dir, 'a.txt'), 'a');
    await exec('git', ['-C', dir, 'add', 'a.txt']);
    await exec('git', ['-C', dir, 'config', 'core.fsmonitor', `touch ${marker}; false`]);
    expect(await readWorkspaceGit(['-C', dir, 'status', '--porcelain'], { timeoutMs: 10_000 })).toBe('A  a.txt\n');
    expect(await readWorkspaceGit(['-C', dir, 'ls-files', '--stage'], { timeoutMs: 10_000 })).toContain('a.txt');
    await expect(fs.access(marker)).rejects.toThrow();
    // The plant is real: the person's plain git runs it.
    await exec('git', ['-C', dir, 'status', '--porcelain']).catch(() => undefined);
    await fs.access(marker);
  });
});

/** The core's source files, relative to electron/core. */
function coreFiles(root: string, rel = ''): string[] {
  return readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const child = path.join(rel, e.name);
    if (e.isDirectory()) return coreFiles(root, child);
    return e.name.endsWith('.ts') ? [child] : [];
  });
}

describe('no other place spawns git', () => {
  it('no file of electron/core outside git/ (and terminal/, the person’s own shell) both starts programs and names git', () => {
    const root = path.resolve(__dirname, '../../../../../electron/core');
    const startsPrograms = /import\s+(?!type\b)[^;]*from\s+'node:child_process'/;
    const namesGit = /['"`]git['"`]|spawn\w*\(\s*[\w.]*\bgit\b/;
    const offending = coreFiles(root)
      .filter((f) => !f.startsWith(`git${path.sep}`) && !f.startsWith(`terminal${path.sep}`))
      .filter((f) => {
        const text = readFileSync(path.join(root, f), 'utf8');
        return startsPrograms.test(text) && namesGit.test(text);
      });
    expect(offending).toEqual([]);
  });
});
