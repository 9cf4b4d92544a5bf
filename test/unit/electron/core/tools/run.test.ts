import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUN_DEFAULT_TIMEOUT_S } from '../../../../../shared/limits.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { pidAlive } from '../../../../../electron/core/process/pid-alive.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import type { ConfinementPolicy } from '../../../../../electron/core/sandbox/confinement.js';
import { liveGroupMembers } from '../../../../../electron/core/process/group-liveness.js';
import { pidsWithCommandLine } from '../sandbox/host-pids.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import { runCommand, runTool, type RunArgs } from '../../../../../electron/core/tools/run.js';
import {
  StalePlanError,
  ToolError,
  type CommandPlan,
  type ToolContext,
  type ToolDef,
} from '../../../../../electron/core/tools/tool-def.js';
import { unconfined } from '../../../../support/unconfined.js';

let root: string;
let ctx: ToolContext;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-run-')));
  await fs.mkdir(path.join(root, 'ws'));
  ctx = {
    workspace: await Workspace.open(path.join(root, 'ws')),
    commandEnv: commandEnv(process.env),
    sandbox: unconfined(),
  };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const ws = () => path.join(root, 'ws');

/** The real bubblewrap, with a data folder and a home of this test's own. */
function confinedBy(base: string): ConfinementPolicy {
  const sandbox = new BwrapSandbox({
    dataDir: path.join(base, 'data'),
    home: path.join(base, 'home'),
    env: process.env,
  });
  return { sandbox, refuseUnconfined: () => false };
}

/** Checks the raw arguments against the schema first, as Tools.plan does, then plans. */
async function plan(raw: Record<string, unknown>): Promise<CommandPlan> {
  const args: RunArgs = parseToolArgs(runTool, raw);
  return (await runTool.plan(args, ctx)) as CommandPlan;
}

async function execute(args: Record<string, unknown>, exec = {}) {
  return runTool.execute(await plan(args), ctx, exec);
}

function output(result: Awaited<ReturnType<typeof execute>>): string {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result.output;
}

describe('run: arguments', () => {
  it('is a tool named run whose schema is strict', () => {
    const asTool: ToolDef = runTool;
    expect(asTool.name).toBe('run');
    expect(runTool.schema.safeParse({ argv: ['ls'], shell: true }).success).toBe(false);
  });

  it('plans the default timeout of 120 s, not marked custom', async () => {
    expect(RUN_DEFAULT_TIMEOUT_S).toBe(120);
    const p = await plan({ argv: ['ls', '-la'] });
    expect(p).toMatchObject({ kind: 'command', tool: 'run', argv: ['ls', '-la'], cwd: ws(), timeoutS: 120 });
    expect(p.customTimeout).toBe(false);
    expect((await plan({ argv: ['ls'], timeout_s: 120 })).customTimeout).toBe(false);
  });

  it('accepts timeout_s of 600 and marks it custom', async () => {
    expect(await plan({ argv: ['ls'], timeout_s: 600 })).toMatchObject({ timeoutS: 600, customTimeout: true });
    expect(await plan({ argv: ['ls'], timeout_s: 1 })).toMatchObject({ timeoutS: 1, customTimeout: true });
  });

  it('refuses timeout_s of 601 with an error that names the maximum, rather than clamping it', async () => {
    const refusal = plan({ argv: ['ls'], timeout_s: 601 });
    await expect(refusal).rejects.toBeInstanceOf(ToolError);
    await expect(refusal).rejects.toThrow(/"timeout_s": the maximum is 600 seconds/);
  });

  it.each([
    [0, /"timeout_s": must be at least 1/],
    [-5, /"timeout_s": must be at least 1/],
    [1.5, /"timeout_s": must be a whole number/],
    ['30', /"timeout_s": must be a number/],
  ])('refuses timeout_s %j', async (timeout_s, message) => {
    await expect(plan({ argv: ['ls'], timeout_s })).rejects.toThrow(message);
  });

  it.each([
    [{}, /"argv" is required/],
    [{ argv: [] }, /"argv": needs at least one string/],
    [{ argv: [''] }, /"argv\.0": the program name/],
    [{ argv: 'ls -la' }, /"argv": must be an array of strings/],
    [{ argv: ['ls', 3] }, /"argv\.1": each element must be a string/],
    [{ argv: ['ls', 'a\0b'] }, /"argv\.1": must not contain a NUL byte/],
    [{ argv: ['ls'], stdin: 'x' }, /unknown field "stdin"/],
    [{ argv: ['ls'], network: 'yes' }, /"network": must be true \(any domain\) or a list of domains/],
    [{ argv: ['ls'], network: ['https://registry.npmjs.org'] }, /"network": .*is a URL: write the host name alone/],
    [{ argv: ['ls'], network: ['localhost'] }, /"network": "localhost" is this machine/],
    [
      { argv: ['ls'], network: ['registry.npmjs.org:0'] },
      /"network": .*has a port that is not a number from 1 to 65535/,
    ],
    [{ argv: ['ls'], unconfined: 1 }, /"unconfined": must be true or false/],
  ])('refuses malformed arguments %j', async (args, message) => {
    await expect(plan(args)).rejects.toThrow(message);
  });
});

describe('run: working folder', () => {
  it('resolves cwd inside the workspace to its real path', async () => {
    await fs.mkdir(path.join(ws(), 'sub'));
    await fs.symlink('sub', path.join(ws(), 'link'));
    expect((await plan({ argv: ['pwd'], cwd: 'link' })).cwd).toBe(path.join(ws(), 'sub'));
    expect(output(await execute({ argv: ['pwd'], cwd: 'sub' }))).toContain(
      `stdout (${ws().length + 5} bytes):\n${ws()}/sub`,
    );
  });

  it('refuses a cwd that walks out with ..', async () => {
    await expect(plan({ argv: ['ls'], cwd: '..' })).rejects.toThrow(/cwd: .*"\.\." to walk out/);
  });

  it('refuses a cwd reached through a symlink pointing out', async () => {
    await fs.symlink(root, path.join(ws(), 'out'));
    await expect(plan({ argv: ['ls'], cwd: 'out' })).rejects.toThrow(/cwd: .*symlink/);
  });

  it('refuses an absolute cwd outside the workspace', async () => {
    await expect(plan({ argv: ['ls'], cwd: root })).rejects.toThrow(/cwd: .* is outside the workspace/);
  });

  it('refuses a cwd that is missing or is a file', async () => {
    await fs.writeFile(path.join(ws(), 'f.txt'), 'x');
    await expect(plan({ argv: ['ls'], cwd: 'nope' })).rejects.toThrow('cwd: "nope" does not exist');
    await expect(plan({ argv: ['ls'], cwd: 'f.txt' })).rejects.toThrow('cwd: "f.txt" is not a folder');
  });

  it('drops a plan whose cwd now resolves elsewhere than approved', async () => {
    await fs.mkdir(path.join(ws(), 'a'));
    await fs.mkdir(path.join(ws(), 'b'));
    await fs.symlink('a', path.join(ws(), 'here'));
    const approved = await plan({ argv: ['touch', 'ran'], cwd: 'here' });
    await fs.rm(path.join(ws(), 'here'));
    await fs.symlink('b', path.join(ws(), 'here'));
    await expect(runTool.execute(approved, ctx, {})).rejects.toBeInstanceOf(StalePlanError);
    await expect(fs.access(path.join(ws(), 'b', 'ran'))).rejects.toThrow();
  });
});

describe.each(['plain', 'confined'] as const)('run: execution, %s', (mode) => {
  beforeEach(() => {
    if (mode === 'confined') ctx = { ...ctx, sandbox: confinedBy(root) };
  });

  it('reports a non-zero exit as a result the model reads, not a tool failure', async () => {
    const result = await execute({ argv: ['sh', '-c', 'echo problem >&2; exit 3'] });
    expect(result.ok).toBe(true);
    expect(output(result)).toMatch(
      /^exit code 3\nduration: \d+\.\d\d s\nstdout: \(empty\)\nstderr \(8 bytes\):\nproblem$/,
    );
    expect(result.details).toMatchObject({ exitCode: 3, signal: null, timedOut: false, stderr: 'problem\n' });
  });

  it('fails with a clear error when the program does not exist', async () => {
    const result = await execute({ argv: ['gatehouse-no-such-program', '--help'] });
    expect(result).toMatchObject({ ok: false, error: 'command not found: gatehouse-no-such-program' });
  });

  it('passes no shell: metacharacters reach the program literally', async () => {
    expect(output(await execute({ argv: ['echo', '$HOME', '|', 'x'] }))).toContain('stdout (10 bytes):\n$HOME | x');
  });

  it('gives the command an empty standard input', async () => {
    expect(output(await execute({ argv: ['cat'] }))).toMatch(/^exit code 0\n.*\nstdout: \(empty\)/);
  });

  it('keeps provider keys and held secrets out of the command’s environment', async () => {
    const appEnv = {
      ...process.env,
      ANTHROPIC_API_KEY: 'sk-ant-test-0001',
      OPENAI_API_KEY: 'sk-openai-test-0002',
      RENAMED_KEY: 'sk-held-by-the-app-0003',
      LC_GATEHOUSE_VISIBLE: 'still-here', // allow-listed (LC_*), so a confined run keeps it too
    };
    ctx = { ...ctx, commandEnv: commandEnv(appEnv, { secretValues: ['sk-held-by-the-app-0003'] }) };
    expect((await plan({ argv: ['env'] })).sandbox.confined).toBe(mode === 'confined');
    const seen = output(await execute({ argv: ['env'] }));
    expect(seen).toContain('LC_GATEHOUSE_VISIBLE=still-here');
    expect(seen).not.toMatch(/ANTHROPIC_API_KEY|OPENAI_API_KEY|RENAMED_KEY|sk-ant|sk-openai|sk-held/);
  });

  it('on timeout says so, and leaves no process of the group running', async () => {
    const script = 'trap "" TERM; sleep 100 & echo $$; wait';
    const marker = `gatehouse-timeout-${mode}-${process.pid}`;
    const result = await execute({ argv: ['sh', '-c', script, marker], timeout_s: 1 });
    expect(output(result)).toMatch(/^timed out after 1 s: the process group was stopped .*killed by signal SIGKILL/);
    expect(result.details).toMatchObject({ timedOut: true, cancelled: false });
    if (mode === 'plain') {
      const pgid = Number((result.details as { stdout: string }).stdout);
      expect(await liveGroupMembers(pgid)).toEqual([]);
    }
    expect((await pidsWithCommandLine(marker)).filter(pidAlive)).toEqual([]);
  });

  it('stops the command when the turn is cancelled', async () => {
    const abort = new AbortController();
    const live: string[] = [];
    const onOutput = (_: string, chunk: string) => {
      live.push(chunk);
      abort.abort();
    };
    const result = await execute({ argv: ['sh', '-c', 'echo started; sleep 100'] }, { signal: abort.signal, onOutput });
    expect(live.join('')).toBe('started\n');
    expect(output(result)).toMatch(/^cancelled by the user: .*killed by signal SIGTERM/);
    expect(result.details).toMatchObject({ cancelled: true });
  });

  it('marks a long stream’s omitted bytes in the text for the model', async () => {
    const result = await execute({ argv: ['head', '-c', '100000', '/dev/zero'] });
    expect(output(result)).toContain('stdout (100000 bytes, 34464 left out in the middle):');
    expect(output(result)).toContain('[... 34464 bytes left out of 100000:');
  });
});

describe('runCommand', () => {
  it('runs confined when given the sandbox and a profile, as the Stop hooks do', async () => {
    const sandbox = confinedBy(root).sandbox;
    const profile = await sandbox.profile(ws(), { network: false, git: false });
    // Outside /tmp, which a confined command sees as a private folder of its own.
    const outside = `/var/tmp/gatehouse-run-test-${process.pid}.txt`;
    const outcome = await runCommand(['sh', '-c', `echo x > ${outside}`], {
      cwd: ws(),
      env: ctx.commandEnv,
      confine: { sandbox, profile },
    });
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stderr.text).toMatch(/Read-only file system/);
    await expect(fs.access(outside)).rejects.toThrow();
  });

  it('runs an argv with the run tool’s limits for callers such as the Stop hooks', async () => {
    const outcome = await runCommand(['sh', '-c', 'echo hook; exit 1'], { cwd: ws(), env: ctx.commandEnv });
    expect(outcome).toMatchObject({ exitCode: 1, timedOut: false, stdout: { text: 'hook\n' } });
  });
});
