/**
 * Issue 13 with the real bubblewrap: what an allowed command cannot reach, run through
 * the run tool as the gate runs it, with a home of its own holding a planted SSH key, a
 * data folder, a secret in the app's environment and a listener on 127.0.0.1.
 */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { pidAlive } from '../../../../../electron/core/process/pid-alive.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import type { CommandPlan, ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { pidsWithCommandLine } from './host-pids.js';

const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nGATEHOUSE-PLANTED-SSH-KEY-7f3a\n';
const DATA_SECRET = 'GATEHOUSE-DATA-FOLDER-SECRET-91c2';
const ENV_SECRET = 'GATEHOUSE-APP-ENV-SECRET-5d0e';

let root: string;
let home: string;
let dataDir: string;
let ws: string;
let ctx: ToolContext;

beforeEach(async () => {
  // Not below /tmp: a confined command has a private /tmp, so the host's is not even there to refuse a write.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-confined-')));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  ws = path.join(home, 'src', 'app');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), SSH_KEY, { mode: 0o600 });
  await fs.mkdir(path.join(dataDir, 'sessions'), { recursive: true });
  await fs.writeFile(path.join(dataDir, 'keys.json'), DATA_SECRET);
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(path.join(root, 'outside'));
  ctx = await contextFor(ws);
  // The app's own environment carries a secret; commands get it without (as commandEnv strips keys).
  process.env.GATEHOUSE_TEST_APP_SECRET = ENV_SECRET;
});
afterEach(async () => {
  delete process.env.GATEHOUSE_TEST_APP_SECRET;
  await fs.rm(root, { recursive: true, force: true });
});

async function contextFor(workspace: string, refuse = false): Promise<ToolContext> {
  const sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
  return {
    workspace: await Workspace.open(workspace, { dataDir }),
    commandEnv: commandEnv(process.env, { secretNames: ['GATEHOUSE_TEST_APP_SECRET'] }),
    sandbox: { sandbox, refuseUnconfined: () => refuse },
  };
}

async function plan(raw: Record<string, unknown>, c = ctx): Promise<CommandPlan> {
  return (await runTool.plan(parseToolArgs(runTool, raw), c)) as CommandPlan;
}

async function run(raw: Record<string, unknown>, c = ctx): Promise<ToolResult & { ok: true }> {
  const result = await runTool.execute(await plan(raw, c), c, {});
  if (!result.ok) throw new Error(`expected a result, got: ${result.error}`);
  return result;
}

const sh = (script: string, extra: Record<string, unknown> = {}) => ({ argv: ['sh', '-c', script], ...extra });

describe('a confined command', () => {
  it('plans confined by default: writes only in the workspace, an empty home, no network, the data folder hidden', async () => {
    const p = await plan({ argv: ['true'] });
    expect(p.sandbox).toEqual({
      confined: true,
      network: false,
      git: false,
      home,
      writable: [ws],
      // Not a repository: an empty .git stands in, and the app's folders are made empty, all read-only.
      readOnly: [path.join(ws, '.git'), path.join(ws, '.gatehouse'), path.join(ws, '.claude')],
      // This home has no toolchains to show.
      shown: [],
      // The data folder first; the machine's own socket places follow.
      hidden: expect.arrayContaining([dataDir]),
    });
  });

  it('cannot write outside the workspace, and is told so in one line', async () => {
    const target = path.join(root, 'outside', 'new.txt');
    const result = await run(sh(`echo x > ${target}`));
    expect(result.output.split('\n')[0]).toBe(
      `blocked by the sandbox: write outside the workspace (only ${ws}, a private /tmp and a private home are writable)`,
    );
    await expect(fs.access(target)).rejects.toThrow();
    // Nor over an existing file outside, nor in the home folder (its writes land in the private home).
    await fs.writeFile(path.join(root, 'outside', 'keep.txt'), 'original');
    await run(sh(`echo changed > ${root}/outside/keep.txt; touch ${home}/.bashrc`));
    expect(await fs.readFile(path.join(root, 'outside', 'keep.txt'), 'utf8')).toBe('original');
    await expect(fs.access(path.join(home, '.bashrc'))).rejects.toThrow();
  });

  it('works as before inside the workspace and its private /tmp', async () => {
    const result = await run(sh('echo made > made.txt && echo t > /tmp/t && cat /tmp/t && pwd'));
    expect(result.details).toMatchObject({ exitCode: 0, stdout: `t\n${ws}\n`, confined: true });
    expect(await fs.readFile(path.join(ws, 'made.txt'), 'utf8')).toBe('made\n');
    // The private /tmp is its own: nothing of it is left on the host's /tmp.
    await expect(fs.access('/tmp/t')).rejects.toThrow();
  });

  it('cannot read a planted ~/.ssh key or the data folder', async () => {
    const result = await run(
      sh(`ls -a ${home}/.ssh; ls ${dataDir}; cat ${dataDir}/keys.json; cat ${home}/.ssh/id_rsa`),
    );
    expect(result.output).not.toContain('GATEHOUSE-PLANTED-SSH-KEY');
    expect(result.output).not.toContain('id_rsa\n');
    expect(result.output).not.toContain(DATA_SECRET);
    expect(result.output).not.toContain('sessions');
    expect(result.output.split('\n')[0]).toBe(
      `blocked by the sandbox: ${dataDir} is hidden from commands (secrets and the app's data stay out of reach); work without it`,
    );
  });

  it('cannot read them even when the workspace is the home folder that holds them', async () => {
    const atHome = await contextFor(home);
    const p = await plan({ argv: ['true'] }, atHome);
    expect(p.sandbox).toMatchObject({
      confined: true,
      writable: [home],
      hidden: expect.arrayContaining([dataDir, path.join(home, '.ssh')]),
    });
    const result = await run(sh('cat .ssh/id_rsa; grep -r PLANTED . ; echo x > .ssh/id_rsa; echo done'), atHome);
    expect(result.output).not.toContain('GATEHOUSE-PLANTED-SSH-KEY');
    expect(await fs.readFile(path.join(home, '.ssh', 'id_rsa'), 'utf8')).toBe(SSH_KEY);
  });

  it("cannot read the app's environment through /proc", async () => {
    const script = 'cat /proc/$PPID/environ; cat /proc/1/environ; for f in /proc/*/environ; do cat "$f"; done; env';
    const result = await run(sh(script));
    expect(result.output).not.toContain(ENV_SECRET);
    // Its own PID namespace: the app's pid is not there at all.
    const seen = await run(sh(`test -e /proc/${process.pid} && echo visible || echo absent`));
    expect(seen.details).toMatchObject({ stdout: process.pid > 3 ? 'absent\n' : expect.any(String) });
  });

  it('cannot connect to a listener on 127.0.0.1, and is told there is no network', async () => {
    const { port, accepted, close } = await listen();
    try {
      const result = await run({ argv: [process.execPath, '-e', connectScript(port)] });
      expect(result.details).toMatchObject({ exitCode: 3 });
      expect(result.output.split('\n')[0]).toMatch(/^blocked by the sandbox: no network/);
      expect(accepted()).toBe(0);
    } finally {
      await close();
    }
  });

  it('cannot reach the ssh-agent socket, which a read-only mount alone would not stop: no Unix socket at all', async () => {
    // In the workspace, which the command sees: only the seccomp program stands in the way.
    const socket = path.join(ws, 'agent.sock');
    let connections = 0;
    const server = net.createServer((c) => {
      connections++;
      c.destroy();
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const sandbox = new BwrapSandbox({ dataDir, home, env: { ...process.env, SSH_AUTH_SOCK: socket } });
      const c: ToolContext = { ...ctx, sandbox: { sandbox, refuseUnconfined: () => false } };
      const script = `require('net').connect(${JSON.stringify(socket)}).on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.error(e.message); process.exit(3); })`;
      const result = await run({ argv: [process.execPath, '-e', script] }, c);
      expect(result.details).toMatchObject({ exitCode: 3 });
      expect(result.output.split('\n')[0]).toMatch(/^blocked by the sandbox: commands cannot open Unix sockets/);
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('cannot leave a setsid or double-forked grandchild alive', async () => {
    const marker = `${process.pid}${Date.now() % 100000}`;
    const script = `setsid sleep 3${marker}1 & (sleep 3${marker}2 &) ; sh -c 'sleep 3${marker}3 &'; sleep 0.5`;
    const seen = new Set<number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const m of ['1', '2', '3']) for (const pid of await pidsWithCommandLine(`3${marker}${m}`)) seen.add(pid);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const result = await run(sh(script));
    watching = false;
    await watcher;
    expect(result.details).toMatchObject({ exitCode: 0 });
    expect(seen.size).toBeGreaterThanOrEqual(3);
    for (const pid of seen) expect(pidAlive(pid)).toBe(false);
  });

  it('keeps .git as a whole, .gatehouse and .claude read-only, and says to ask with git: true', async () => {
    await fs.mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, '.git', 'config'), '[core]\n');
    await fs.writeFile(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await fs.mkdir(path.join(ws, '.gatehouse'));
    const p = await plan({ argv: ['true'] });
    expect(p.sandbox).toMatchObject({
      readOnly: [path.join(ws, '.git'), path.join(ws, '.gatehouse'), path.join(ws, '.claude')],
    });
    const result = await run(
      sh(
        'echo ok > .git/HEAD; echo evil > .git/hooks/pre-commit; echo "[core] hooksPath=/x" >> .git/config; echo {} > .gatehouse/settings.json; mkdir .claude/skills',
      ),
    );
    expect(result.output.split('\n')[0]).toBe(
      'blocked by the sandbox: .git is read-only; ask with git: true if the command must commit, check out or fetch',
    );
    await expect(fs.access(path.join(ws, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
    await expect(fs.access(path.join(ws, '.gatehouse', 'settings.json'))).rejects.toThrow();
    // .claude was made empty for the run only: nothing is left behind in the workspace.
    await expect(fs.access(path.join(ws, '.claude'))).rejects.toThrow();
    expect(await fs.readFile(path.join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(await fs.readFile(path.join(ws, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
  });
});

describe('git: true', () => {
  it('makes .git writable for the run, but never its hooks or config, and its card and grant say so', async () => {
    await fs.mkdir(path.join(ws, '.git'));
    await fs.writeFile(path.join(ws, '.git', 'config'), '[core]\n');
    const p = await plan({ argv: ['true'], git: true });
    expect(p).toMatchObject({ git: true, sandbox: { confined: true, git: true } });
    expect(p.sandbox).toMatchObject({
      writable: [ws, path.join(ws, '.git')],
      readOnly: expect.arrayContaining([path.join(ws, '.git', 'hooks'), path.join(ws, '.git', 'config')]),
    });
    // Planning touched nothing.
    await expect(fs.access(path.join(ws, '.git', 'hooks'))).rejects.toThrow();
    const result = await run(
      sh('echo ok > .git/HEAD; mkdir -p .git/hooks; echo evil > .git/hooks/post-checkout; echo x >> .git/config', {
        git: true,
      }),
    );
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, '.git', 'HEAD'), 'utf8')).toBe('ok\n');
    // The hooks folder stood in, read-only and empty, for the run only.
    await expect(fs.access(path.join(ws, '.git', 'hooks'))).rejects.toThrow();
    expect(await fs.readFile(path.join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });
});

describe('unconfined: true', () => {
  it('writes outside, and only with that flag', async () => {
    const target = path.join(root, 'outside', 'escaped.txt');
    const confined = await run(sh(`echo x > ${target}`));
    expect(confined.details).toMatchObject({ confined: true });
    await expect(fs.access(target)).rejects.toThrow();
    const p = await plan(sh(`echo x > ${target}`, { unconfined: true }));
    expect(p).toMatchObject({
      unconfined: true,
      sandbox: { confined: false, reason: 'the call asked to run without the sandbox' },
    });
    const result = await run(sh(`echo x > ${target}`, { unconfined: true }));
    expect(result.details).toMatchObject({ exitCode: 0, confined: false });
    expect(await fs.readFile(target, 'utf8')).toBe('x\n');
  });
});

describe('where the sandbox cannot run', () => {
  it('plans every command unconfined with the reason, bwrap off the PATH', async () => {
    const sandbox = new BwrapSandbox({ dataDir, home, env: { ...process.env, PATH: path.join(root, 'empty-bin') } });
    const c: ToolContext = { ...ctx, sandbox: { sandbox, refuseUnconfined: () => false } };
    expect(await sandbox.availability()).toMatchObject({
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      fix: expect.stringContaining('apt install bubblewrap'),
    });
    expect((await plan({ argv: ['true'] }, c)).sandbox).toEqual({
      confined: false,
      reason: 'bubblewrap (bwrap) is not installed',
    });
    expect((await plan({ argv: ['true'], network: true }, c)).sandbox).toMatchObject({ confined: false });
  });

  it('refuses such commands outright when the setting says so, before any card', async () => {
    const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, bwrapPath: null });
    const c: ToolContext = { ...ctx, sandbox: { sandbox, refuseUnconfined: () => true } };
    await expect(plan({ argv: ['touch', 'x'] }, c)).rejects.toThrow(
      /^refused: this command cannot be confined here \(bubblewrap \(bwrap\) is not installed\), and Gatehouse is set to refuse/,
    );
  });

  it('says user namespaces are off, and how to allow them, when bwrap cannot make one', async () => {
    const fake = path.join(root, 'fake-bwrap');
    await fs.writeFile(fake, '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, bwrapPath: fake });
    expect(await sandbox.availability()).toEqual({
      available: false,
      reason: 'user namespaces are off, so bubblewrap cannot start (bwrap: setting up uid map: Permission denied)',
      fix: expect.stringContaining('kernel.unprivileged_userns_clone=1'),
    });
    const c: ToolContext = { ...ctx, sandbox: { sandbox, refuseUnconfined: () => false } };
    expect((await plan({ argv: ['true'] }, c)).sandbox).toMatchObject({ confined: false });
  });

  it.each<[NodeJS.Platform, RegExp]>([
    ['win32', /^Windows has no sandbox for commands yet$/],
    ['darwin', /^the macOS sandbox \(Seatbelt\) is not supported yet$/],
  ])('says why on %s', async (platform, reason) => {
    const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, platform });
    const availability = await sandbox.availability();
    expect(availability.available).toBe(false);
    if (!availability.available) expect(availability.reason).toMatch(reason);
  });
});

function connectScript(port: number): string {
  return `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.error(e.message); process.exit(3); })`;
}

async function listen(): Promise<{ port: number; accepted: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, accepted: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
