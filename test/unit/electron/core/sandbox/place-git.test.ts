/**
 * git in a session's place of its own (SPEC §15), through the run tool with the real
 * bubblewrap: a worktree place sees the person's `.git` read-only (so `git status` and
 * `git log` work), never writes it, not even with git: true, and never sees the person's
 * working files beside it.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import type { CommandPlan, ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';

const exec = promisify(execFile);

let root: string;
/** The person's side, shown as a place they added in Settings: readable but for the place's rule. */
let shownRoot: string;
let home: string;
let dataDir: string;
let origin: string;
let place: string;

const gitEnv = () => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'p@example.invalid',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'p@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
});
const personsGit = (args: string[], cwd = origin) => exec('git', args, { cwd, env: gitEnv() });

beforeEach(async () => {
  // Under /var/tmp (a confined command has a private /tmp).
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-place-git-')));
  shownRoot = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-place-git-shown-')));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  origin = path.join(shownRoot, 'origin');
  place = path.join(dataDir, 'places', 's1', 'origin');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(origin, { recursive: true });
  await fs.mkdir(path.dirname(place), { recursive: true });
  await personsGit(['init', '-q', '-b', 'main']);
  await fs.writeFile(path.join(origin, 'a.txt'), 'a\n');
  await fs.writeFile(path.join(origin, 'secret.txt'), 'the person’s own\n');
  await personsGit(['add', 'a.txt', 'secret.txt']);
  await personsGit(['commit', '-qm', 'first']);
  await personsGit(['worktree', 'add', '-q', '--no-track', '-b', 'gatehouse/s1', place, 'HEAD']);
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(shownRoot, { recursive: true, force: true });
});

async function run(raw: Record<string, unknown>): Promise<ToolResult & { ok: true }> {
  const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, extraShown: () => [shownRoot] });
  const workspace = await Workspace.open(place, { dataDir, admittedPlace: place });
  const ctx: ToolContext = {
    workspace,
    commandEnv: commandEnv({ ...process.env, HOME: home }),
    sandbox: { sandbox, refuseUnconfined: () => false },
  };
  const plan = (await runTool.plan(parseToolArgs(runTool, raw), ctx)) as CommandPlan;
  const result = await runTool.execute(plan, ctx, {});
  if (!result.ok) throw new Error(`expected a result, got: ${result.error}`);
  return result;
}

const sh = (script: string, extra: Record<string, unknown> = {}) => ({ argv: ['sh', '-c', script], ...extra });
const exitOf = (r: ToolResult & { ok: true }) => (r.details as { exitCode?: number }).exitCode;

describe("a confined command in a worktree place and the person's repository", () => {
  it('runs git status and git log in the place', async () => {
    await fs.writeFile(path.join(place, 'a.txt'), 'changed in the place\n');
    const result = await run(sh('git status --porcelain && git log -1 --format=%s', { timeout_s: 60 }));
    expect(result.output).toContain(' M a.txt');
    expect(result.output).toContain('first');
    expect(exitOf(result)).toBe(0);
  }, 60_000);

  it('cannot write into the person’s .git, not even with git: true', async () => {
    const refs = path.join(origin, '.git', 'refs', 'heads');
    for (const git of [false, true]) {
      const result = await run(
        sh(`touch ${origin}/.git/PLANTED; git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x`, {
          git,
        }),
      );
      expect(exitOf(result)).not.toBe(0);
      // The model is told why, in words that fit: not "a toolchain or cache".
      expect(result.output.split('\n')[0]).toMatch(/is the repository this worktree belongs to, shown read-only/);
    }
    await expect(fs.access(path.join(origin, '.git', 'PLANTED'))).rejects.toThrow();
    expect((await personsGit(['log', '--format=%s', 'gatehouse/s1'])).stdout.trim()).toBe('first');
    expect(await fs.readdir(refs)).toEqual(expect.arrayContaining(['main']));
  }, 60_000);

  it('cannot read the person’s working files beside their .git', async () => {
    // Their folder is in a place shown in Settings: only a place's rule hides it.
    await fs.writeFile(path.join(shownRoot, 'beside.txt'), 'seen\n');
    expect((await run(sh(`cat ${shownRoot}/beside.txt`))).output).toContain('seen');
    const result = await run(sh(`cat ${origin}/secret.txt; ls -A ${origin}`));
    expect(result.output).not.toContain('the person’s own');
    expect(result.output).not.toContain('a.txt');
    expect(result.output).toContain('.git');
  }, 60_000);

  it('names on its card the .git it shows read-only and the folder it hides', async () => {
    const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, extraShown: () => [shownRoot] });
    const profile = await sandbox.profile(place, { network: false, git: true });
    expect(profile.shown).toContain(path.join(origin, '.git'));
    expect(profile.hidden).toContain(origin);
    expect(profile.writable.some((p) => p.startsWith(origin))).toBe(false);
  });
});
