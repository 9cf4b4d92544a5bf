/**
 * Ordinary work still runs confined (issue 19): with this machine's real home folder,
 * so the toolchains the allow-list shows are the ones really installed here, in a
 * workspace with a node_modules, a Python virtual environment and a git history.
 * Go is run only where it is installed (this machine has none), and says so.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { findOnPath } from '../../../../../electron/core/sandbox/program-path.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import type { CommandPlan, ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';

let root: string;
let ws: string;
let ctx: ToolContext;

const hasGo = (await findOnPath('go', process.env.PATH)) !== null;
const hasCargo = (await findOnPath('cargo', process.env.PATH)) !== null;
const hasPytest = (() => {
  try {
    execFileSync('python3', ['-c', 'import pytest'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  // Under /var/tmp: a confined command has a private /tmp.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-everyday-')));
  ws = path.join(root, 'project');
  await fs.mkdir(ws);
  await nodeProject();
  await pythonProject();
  await rustCrate();
  gitHistory();
  const sandbox = new BwrapSandbox({ dataDir: path.join(root, 'data'), home: os.homedir(), env: process.env });
  ctx = {
    workspace: await Workspace.open(ws, { dataDir: path.join(root, 'data') }),
    commandEnv: commandEnv(process.env),
    sandbox: { sandbox, refuseUnconfined: () => false },
  };
}, 120_000);
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function nodeProject(): Promise<void> {
  await fs.mkdir(path.join(ws, 'node_modules', 'shout'), { recursive: true });
  await fs.writeFile(path.join(ws, 'node_modules', 'shout', 'index.js'), 'module.exports = (s) => s.toUpperCase();\n');
  await fs.writeFile(path.join(ws, 'node_modules', 'shout', 'package.json'), '{"name":"shout","main":"index.js"}\n');
  await fs.writeFile(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'everyday', private: true, scripts: { test: 'node test.js' } }),
  );
  await fs.writeFile(
    path.join(ws, 'test.js'),
    "const shout = require('shout');\nif (shout('ok') !== 'OK') process.exit(1);\nconsole.log('node tests pass');\n",
  );
}

async function pythonProject(): Promise<void> {
  await fs.writeFile(path.join(ws, 'test_calc.py'), 'def test_add():\n    assert 1 + 1 == 2\n');
  // A venv that sees the interpreter's own packages (pytest), as a project's often does.
  execFileSync('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(ws, '.venv')]);
}

async function rustCrate(): Promise<void> {
  await fs.mkdir(path.join(ws, 'crate', 'src'), { recursive: true });
  await fs.writeFile(
    path.join(ws, 'crate', 'Cargo.toml'),
    '[package]\nname = "everyday"\nversion = "0.1.0"\nedition = "2021"\n',
  );
  await fs.writeFile(
    path.join(ws, 'crate', 'src', 'lib.rs'),
    '#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(1 + 1, 2);\n    }\n}\n',
  );
}

function gitHistory(): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=P', '-c', 'user.email=p@example.invalid', ...args], { cwd: ws });
  git('init', '-q', '-b', 'main');
  git('add', 'package.json', 'test.js');
  git('commit', '-qm', 'first');
}

async function run(raw: Record<string, unknown>): Promise<ToolResult & { ok: true }> {
  const plan = (await runTool.plan(parseToolArgs(runTool, raw), ctx)) as CommandPlan;
  expect(plan.sandbox.confined).toBe(true);
  const result = await runTool.execute(plan, ctx, {});
  if (!result.ok) throw new Error(`expected a result, got: ${result.error}`);
  return result;
}

describe('everyday commands run confined', () => {
  it('node and npm test, with the workspace node_modules', async () => {
    const node = await run({ argv: ['node', '-e', "console.log(require('shout')('hi'))"] });
    expect(node.details).toMatchObject({ exitCode: 0, stdout: 'HI\n' });
    const npm = await run({ argv: ['npm', 'test'], timeout_s: 120 });
    expect(npm.details).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('node tests pass') });
  });

  it.skipIf(!hasPytest)('python3 -m pytest, in the project venv', async () => {
    const result = await run({
      argv: ['.venv/bin/python', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      timeout_s: 120,
    });
    expect(result.details).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('1 passed') });
  });

  it.skipIf(!hasCargo)(
    'cargo test, with the toolchain from the home folder',
    async () => {
      const result = await run({ argv: ['cargo', 'test', '--offline', '-q'], cwd: 'crate', timeout_s: 600 });
      expect(result.details).toMatchObject({ exitCode: 0 });
      expect(result.output).toContain('test result: ok. 1 passed');
    },
    600_000,
  );

  it.skipIf(!hasGo)(
    'go test',
    async () => {
      await fs.mkdir(path.join(ws, 'gomod'), { recursive: true });
      await fs.writeFile(path.join(ws, 'gomod', 'go.mod'), 'module everyday\n\ngo 1.21\n');
      await fs.writeFile(
        path.join(ws, 'gomod', 'add_test.go'),
        'package everyday\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal("no")\n\t}\n}\n',
      );
      const result = await run({ argv: ['go', 'test', './...'], cwd: 'gomod', timeout_s: 300 });
      expect(result.details).toMatchObject({ exitCode: 0 });
    },
    300_000,
  );

  it('git status, diff and log on the history', async () => {
    await fs.writeFile(path.join(ws, 'test.js'), "console.log('changed');\n");
    const result = await run({ argv: ['sh', '-c', 'git status --short && git diff --stat && git log --oneline'] });
    expect(result.details).toMatchObject({ exitCode: 0 });
    const out = (result.details as { stdout: string }).stdout;
    expect(out).toContain(' M test.js');
    expect(out).toMatch(/[0-9a-f]{7} first/);
  });
});
