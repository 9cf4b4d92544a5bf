/**
 * Issue 31's git findings, replayed through the app's own doors with the real bubblewrap
 * and git: a card planned for a workspace whose `.git` arrived with a `core.fsmonitor`
 * runs nothing (denied or allowed); `git: true` cannot plant through `commondir`, a new
 * gitlink or a new `.git/modules` repository; husky v9's hooks cannot be rewritten; a
 * stand-in (placeholders.ts) outlives the first of two commands holding it. The git ones
 * end as the review did: the person's own, unconfined `git status` and `git commit`, which
 * must run nothing planted.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSandbox, HOOKS_WARNING } from '../../../../../shared/cards.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import type { CommandPlan, ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { startHarness, type Harness } from '../core-harness.js';

const exec = promisify(execFile);

let root: string;
let home: string;
let dataDir: string;
let ws: string;
/** Where planted code would leave its mark, outside everything the sandbox may write. */
let pwned: string;

beforeEach(async () => {
  // Under /var/tmp: a confined command has a private /tmp.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-git-door-')));
  home = path.join(root, 'home');
  dataDir = path.join(home, '.config', 'Gatehouse');
  ws = path.join(home, 'src', 'app');
  pwned = path.join(root, 'PWNED');
  await fs.mkdir(path.join(dataDir, 'sessions'), { recursive: true });
  await fs.mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function contextFor(): Promise<ToolContext> {
  const sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
  const workspace = await Workspace.open(ws, { dataDir });
  return { workspace, commandEnv: commandEnv(process.env), sandbox: { sandbox, refuseUnconfined: () => false } };
}

async function plan(raw: Record<string, unknown>, ctx: ToolContext): Promise<CommandPlan> {
  return (await runTool.plan(parseToolArgs(runTool, raw), ctx)) as CommandPlan;
}

async function run(raw: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult & { ok: true }> {
  const c = ctx ?? (await contextFor());
  const result = await runTool.execute(await plan(raw, c), c, {});
  if (!result.ok) throw new Error(`expected a result, got: ${result.error}`);
  return result;
}

const sh = (script: string, extra: Record<string, unknown> = {}) => ({ argv: ['sh', '-c', script], ...extra });

/** The person's own git, unconfined, with a plain environment. */
async function personsGit(args: string[], cwd = ws): Promise<string> {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_AUTHOR_NAME: 'Person',
    GIT_AUTHOR_EMAIL: 'p@example.invalid',
    GIT_COMMITTER_NAME: 'Person',
    GIT_COMMITTER_EMAIL: 'p@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const { stdout, stderr } = await exec('git', args, { cwd, env });
  return stdout + stderr;
}

async function gitRepo(at = ws): Promise<void> {
  await personsGit(['init', '-q', '-b', 'main'], at);
  await fs.writeFile(path.join(at, 'a.txt'), 'a\n');
  await personsGit(['add', 'a.txt'], at);
  await personsGit(['commit', '-qm', 'first'], at);
}

async function expectPersonsGitRunsNothingPlanted(): Promise<void> {
  await personsGit(['status']);
  await fs.writeFile(path.join(ws, 'b.txt'), `b ${Math.random()}\n`);
  await personsGit(['add', 'b.txt']);
  await personsGit(['commit', '-qm', 'person']);
  await expect(fs.access(pwned)).rejects.toThrow();
}

const fsmonitor = () => `touch ${pwned}; false`;
const AGENT = '-c user.name=Agent -c user.email=a@example.invalid';

describe("planning a card never runs the workspace's git (seen 1)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function proposeTrue(answer: 'deny' | 'allow_once'): Promise<void> {
    if (!h) throw new Error('no harness');
    h.fake.enqueue({ toolCalls: [{ name: 'run', input: { argv: ['true'] } }] }, { text: 'done' });
    const id = await h.open();
    await h.call('session.send', { id, text: 'go' });
    const card = await h.event(id, 'card');
    expect(card.body).toMatchObject({ kind: 'command', sandbox: { confined: true } });
    await h.call('card.answer', { id, cardId: card.cardId, answer });
    await h.event(id, 'turn_ended');
  }

  it('a folder that arrived with a .git whose config sets core.fsmonitor: nothing runs, denied or allowed', async () => {
    h = await startHarness();
    await gitRepo(h.workspace);
    await personsGit(['config', 'core.fsmonitor', fsmonitor()], h.workspace);
    await proposeTrue('deny');
    await expect(fs.access(pwned)).rejects.toThrow();
    await proposeTrue('allow_once');
    await expect(fs.access(pwned)).rejects.toThrow();
  });

  it('a tracked file the config includes: a command cannot write it, and the next card runs nothing from it', async () => {
    await gitRepo();
    await fs.writeFile(path.join(ws, 'team.gitconfig'), '[core]\n\tautocrlf = false\n');
    await personsGit(['add', 'team.gitconfig']);
    await personsGit(['commit', '-qm', 'team config']);
    await personsGit(['config', 'include.path', '../team.gitconfig']);
    const ctx = await contextFor();
    const write = await run(sh(`printf '[core]\\n\\tfsmonitor = ${fsmonitor()}\\n' >> team.gitconfig`), ctx);
    expect(write.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, 'team.gitconfig'), 'utf8')).not.toContain('fsmonitor');
    // Had it got there (the folder arrived so), planning the next card runs nothing, even with
    // the index changed since the last card (nothing of it is remembered).
    await fs.writeFile(path.join(ws, 'a.txt'), 'staged\n');
    await personsGit(['add', 'a.txt']);
    await fs.appendFile(path.join(ws, 'team.gitconfig'), `[core]\n\tfsmonitor = ${fsmonitor()}\n`);
    await plan({ argv: ['true'] }, ctx);
    await plan({ argv: ['true'], git: true }, ctx);
    await expect(fs.access(pwned)).rejects.toThrow();
  });
});

describe('git: true cannot plant code the person’s git runs (seen 2)', () => {
  beforeEach(() => gitRepo());

  it('through .git/commondir naming a copy of .git with a core.fsmonitor, while a commit still works', async () => {
    const plant = `cp -r .git .cd && git --git-dir=.cd config core.fsmonitor "${fsmonitor()}"; echo ../.cd > .git/commondir; echo '[core]' > .git/config.worktree`;
    const result = await run(sh(`${plant}; git ${AGENT} commit -q --allow-empty -m agent`, { git: true }));
    expect(result.details).toMatchObject({ stderr: expect.stringMatching(/commondir: Read-only file system/) });
    // What stood in for the run is gone, and the commit went through.
    await expect(fs.access(path.join(ws, '.git', 'commondir'))).rejects.toThrow();
    await expect(fs.access(path.join(ws, '.git', 'config.worktree'))).rejects.toThrow();
    expect(await personsGit(['log', '--format=%s'])).toBe('agent\nfirst\n');
    await expectPersonsGitRunsNothingPlanted();
  });

  it('through a nested repository added as a gitlink: taken back, and the model told', async () => {
    const script = [
      `git init -q vendor/lib`,
      `git -C vendor/lib config core.fsmonitor "${fsmonitor()}"`,
      `git -C vendor/lib ${AGENT} commit -q --allow-empty -m x`,
      `git update-index --add --cacheinfo 160000,$(git -C vendor/lib rev-parse HEAD),vendor/lib`,
    ].join(' && ');
    const result = await run(sh(script, { git: true }));
    expect(result.details).toMatchObject({ exitCode: 0 });
    expect(result.output.split('\n')[0]).toBe(
      "refused by the sandbox: a command may not add a repository the user's git would enter (a submodule); removed the gitlink vendor/lib from the index. Ask the user to add submodules themselves.",
    );
    expect(await personsGit(['ls-files', '--stage'])).not.toContain('160000');
    await expectPersonsGitRunsNothingPlanted();
  });

  it('through a new repository in .git/modules: removed, and the model told', async () => {
    const script = `git init -q --bare .git/modules/lib && git --git-dir=.git/modules/lib config core.fsmonitor "${fsmonitor()}"`;
    const result = await run(sh(script, { git: true }));
    expect(result.details).toMatchObject({ exitCode: 0 });
    expect(result.output.split('\n')[0]).toMatch(/^refused by the sandbox: .*removed \.git\/modules\/lib\./);
    await expect(fs.access(path.join(ws, '.git', 'modules', 'lib'))).rejects.toThrow();
    await expectPersonsGitRunsNothingPlanted();
  });
});

describe('git: true keeps the same read-only in submodules’ and linked worktrees’ git folders', () => {
  beforeEach(() => gitRepo());

  it(".git/modules/<sub>'s commondir, config, config.worktree and hooks, while git status still enters the submodule", async () => {
    const upstream = path.join(root, 'upstream');
    await fs.mkdir(upstream);
    await gitRepo(upstream);
    await personsGit(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'sub']);
    await personsGit(['commit', '-qm', 'with a submodule']);
    const module = '.git/modules/sub';
    const plant = [
      `cp -r ${module} .cd && git --git-dir=.cd config core.fsmonitor "${fsmonitor()}"`,
      `echo ../../../.cd > ${module}/commondir`,
      `echo '[core]' > ${module}/config.worktree`,
      `printf '#!/bin/sh\\ntouch ${pwned}\\n' > ${module}/hooks/post-checkout`,
      `git --git-dir=${module} config core.fsmonitor "${fsmonitor()}"`,
      'git -C sub status --short',
    ].join('; ');
    const result = await run(sh(plant, { git: true }));
    expect(result.details).toMatchObject({ exitCode: 0 }); // the last: git status in the submodule works
    expect(result.details).toMatchObject({ stderr: expect.stringMatching(/commondir: Read-only file system/) });
    await expect(fs.access(path.join(ws, module, 'commondir'))).rejects.toThrow();
    await expect(fs.access(path.join(ws, module, 'hooks', 'post-checkout'))).rejects.toThrow();
    await expectPersonsGitRunsNothingPlanted();
    await personsGit(['status'], path.join(ws, 'sub'));
    await expect(fs.access(pwned)).rejects.toThrow();
  });

  it("a linked worktree's commondir in .git/worktrees", async () => {
    const other = path.join(root, 'other');
    await personsGit(['worktree', 'add', '-q', '-b', 'side', other]);
    const [name] = await fs.readdir(path.join(ws, '.git', 'worktrees'));
    const plant = `cp -r .git .cd && git --git-dir=.cd config core.fsmonitor "${fsmonitor()}"; echo ${ws}/.cd > .git/worktrees/${name}/commondir`;
    const result = await run(sh(plant, { git: true }));
    expect(result.details).toMatchObject({ stderr: expect.stringMatching(/commondir: Read-only file system/) });
    expect(await fs.readFile(path.join(ws, '.git', 'worktrees', name as string, 'commondir'), 'utf8')).toBe('../..\n');
    await personsGit(['status'], other);
    await expect(fs.access(pwned)).rejects.toThrow();
  });
});

describe("husky v9's hooks (seen 5)", () => {
  beforeEach(async () => {
    await gitRepo();
    // husky v9: core.hooksPath=.husky/_, whose runner executes .husky/<hook> one folder up.
    await fs.mkdir(path.join(ws, '.husky', '_'), { recursive: true });
    await fs.writeFile(path.join(ws, '.husky', '_', 'pre-commit'), '#!/bin/sh\nsh .husky/pre-commit\n', {
      mode: 0o755,
    });
    await fs.writeFile(path.join(ws, '.husky', 'pre-commit'), 'true\n');
    await personsGit(['config', 'core.hooksPath', '.husky/_']);
  });

  it('a command cannot rewrite .husky/pre-commit, and the person’s next commit runs nothing planted', async () => {
    const ctx = await contextFor();
    const rewrite = await run(sh(`echo "touch ${pwned}" > .husky/pre-commit`), ctx);
    expect(rewrite.details).not.toMatchObject({ exitCode: 0 });
    expect(rewrite.output.split('\n')[0]).toMatch(/^blocked by the sandbox: .*\.husky stays read-only/);
    // Nor with git: true.
    const withGit = await run(sh(`echo "touch ${pwned}" > .husky/pre-commit`, { git: true }), ctx);
    expect(withGit.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, '.husky', 'pre-commit'), 'utf8')).toBe('true\n');
    await expectPersonsGitRunsNothingPlanted();
  });

  it('any hooks folder named _ has its parent read-only too (husky’s layout under another name)', async () => {
    await fs.mkdir(path.join(ws, 'tools', 'hooks', '_'), { recursive: true });
    await fs.writeFile(path.join(ws, 'tools', 'hooks', '_', 'pre-commit'), '#!/bin/sh\nsh tools/hooks/pre-commit\n', {
      mode: 0o755,
    });
    await fs.writeFile(path.join(ws, 'tools', 'hooks', 'pre-commit'), 'true\n');
    await personsGit(['config', 'core.hooksPath', 'tools/hooks/_']);
    const rewrite = await run(sh(`echo "touch ${pwned}" > tools/hooks/pre-commit`));
    expect(rewrite.output.split('\n')[0]).toMatch(/^blocked by the sandbox: .*tools\/hooks stays read-only/);
    await expectPersonsGitRunsNothingPlanted();
  });

  it('.husky stays read-only before husky is set up (a fresh clone: the next npm install sets core.hooksPath)', async () => {
    await personsGit(['config', '--unset', 'core.hooksPath']);
    const rewrite = await run(sh(`echo "touch ${pwned}" > .husky/pre-commit`));
    expect(rewrite.output.split('\n')[0]).toMatch(/^blocked by the sandbox: .*\.husky stays read-only/);
    expect(await fs.readFile(path.join(ws, '.husky', 'pre-commit'), 'utf8')).toBe('true\n');
  });

  it('the card says its hooks run workspace files at the next commit; a run names what it changed of them', async () => {
    const ctx = await contextFor();
    const card = await plan(sh('true'), ctx);
    expect(describeSandbox({ sandbox: card.sandbox }, home).warnings).toContain(HOOKS_WARNING);
    await fs.writeFile(path.join(ws, 'package.json'), '{"scripts":{"lint":"true"}}\n');
    const result = await run(
      sh(
        `printf '{"scripts":{"lint":"touch ${pwned}"}}' > package.json && mkdir -p node_modules/.bin && touch node_modules/.bin/eslint`,
      ),
      ctx,
    );
    expect(result.details).toMatchObject({
      exitCode: 0,
      hookInputsChanged: ['node_modules/.bin/eslint', 'package.json'],
    });
    expect(result.output.split('\n')[0]).toMatch(
      /^note: this command changed node_modules\/\.bin\/eslint, package\.json, which this repository's git hooks may run/,
    );
  });

  it('a repository without hooks gets neither the line nor the note', async () => {
    await personsGit(['config', '--unset', 'core.hooksPath']);
    const ctx = await contextFor();
    const card = await plan(sh('true'), ctx);
    expect(describeSandbox({ sandbox: card.sandbox }, home).warnings).toEqual([]);
    const result = await run(sh(`echo '{"scripts":{}}' > package.json`), ctx);
    expect(result.output).not.toMatch(/^note:/);
  });
});

describe('a stand-in held by two commands (placeholders.ts)', () => {
  it('stays while the second still runs after the first ended: no .git can be made there', async () => {
    // Not a repository: an empty read-only .git stands in while commands run.
    const ctx = await contextFor();
    const first = run(sh('touch first-started; while [ ! -e second-started ]; do sleep 0.05; done'), ctx);
    // The first made the stand-in: the second starts only once the first runs.
    await expect
      .poll(
        () =>
          fs.access(path.join(ws, 'first-started')).then(
            () => true,
            () => false,
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    const second = run(
      sh('touch second-started; while [ ! -e first-ended ]; do sleep 0.05; done; mkdir .git/x; git init -q .'),
      ctx,
    );
    await first;
    await fs.writeFile(path.join(ws, 'first-ended'), '');
    const result = await second;
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(result.output.split('\n')[0]).toMatch(/\.git is read-only/);
    // The last one out removed it.
    await expect(fs.access(path.join(ws, '.git'))).rejects.toThrow();
  });
});
