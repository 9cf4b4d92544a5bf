/**
 * Issue 31's places, through the run tool with the real bubblewrap: credentials a second
 * review read inside allow-listed toolchain folders and inside places added in Settings,
 * tokens in allowed variables' values, and the folders of the person's own files outside
 * home (/mnt, /var/tmp, …). Each file is planted in a fake home under /var/tmp, then a
 * confined `cat` tries it by path.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSandbox } from '../../../../../shared/cards.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import type { CommandPlan, ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';

let root: string;
let home: string;
let dataDir: string;
let ws: string;

beforeEach(async () => {
  // Under /var/tmp: a confined command has a private /tmp (and /var/tmp is emptied around the workspace).
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-places-')));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  ws = path.join(root, 'ws');
  await fs.mkdir(dataDir, { recursive: true });
  await fs.mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function contextFor(extraShown: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<ToolContext> {
  const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, extraShown: () => extraShown });
  return {
    workspace: await Workspace.open(ws, { dataDir }),
    commandEnv: commandEnv(env),
    sandbox: { sandbox, refuseUnconfined: () => false },
  };
}

async function run(argv: string[], ctx: ToolContext): Promise<ToolResult & { ok: true }> {
  const plan = (await runTool.plan(parseToolArgs(runTool, { argv }), ctx)) as CommandPlan;
  expect(plan.sandbox.confined).toBe(true);
  const result = await runTool.execute(plan, ctx, {});
  if (!result.ok) throw new Error(`expected a result, got: ${result.error}`);
  return result;
}

/** Writes each file (relative to `base`) holding a marker of its own; returns the markers by path. */
async function plant(base: string, rels: readonly string[], tag: string): Promise<Map<string, string>> {
  const markers = new Map<string, string>();
  for (const [i, rel] of rels.entries()) {
    const file = path.join(base, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const marker = `GATEHOUSE-${tag}-${i}`;
    await fs.writeFile(file, `${marker}\n`);
    markers.set(rel, marker);
  }
  return markers;
}

/** Runs `cat` on every planted file (and the visible ones), and expects none of the planted markers. */
async function expectUnreadable(markers: Map<string, string>, base: string, ctx: ToolContext, visible: string[] = []) {
  const files = [...markers.keys()].map((rel) => path.join(base, rel));
  const result = await run(
    ['sh', '-c', 'for f in "$@"; do cat "$f"; done 2>/dev/null; echo end', 'sh', ...visible, ...files],
    ctx,
  );
  expect(result.details).toMatchObject({ exitCode: 0 });
  for (const [rel, marker] of markers) expect(result.output, rel).not.toContain(marker);
  return result.output;
}

describe('credentials inside allow-listed toolchain folders stay hidden', () => {
  it("nvm's global etc/npmrc, while node's bin and lib are shown", async () => {
    const version = path.join(home, '.nvm', 'versions', 'node', 'v22.1.0');
    await fs.mkdir(path.join(version, 'bin'), { recursive: true });
    await fs.writeFile(path.join(version, 'bin', 'node'), '#!/bin/sh\necho NODE-RUNS\n', { mode: 0o755 });
    await fs.mkdir(path.join(version, 'lib', 'node_modules', 'npm'), { recursive: true });
    await fs.writeFile(path.join(version, 'lib', 'node_modules', 'npm', 'package.json'), 'NPM-CODE\n');
    const markers = await plant(version, ['etc/npmrc'], 'NVM-NPMRC');
    const ctx = await contextFor();
    const ran = await run([path.join(version, 'bin', 'node')], ctx);
    expect(ran.details).toMatchObject({ exitCode: 0, stdout: 'NODE-RUNS\n' });
    const output = await expectUnreadable(markers, version, ctx, [
      path.join(version, 'lib', 'node_modules', 'npm', 'package.json'),
    ]);
    expect(output).toContain('NPM-CODE');
  });

  it(".NET's certificate store with private keys, while the SDK is shown", async () => {
    await plant(path.join(home, '.dotnet'), ['sdk/9.0.100/dotnet.dll'], 'DOTNET-SDK');
    const markers = await plant(
      path.join(home, '.dotnet'),
      ['corefx/cryptography/x509stores/my/ABCDEF.pfx'],
      'DOTNET-PFX',
    );
    const ctx = await contextFor();
    const output = await expectUnreadable(markers, path.join(home, '.dotnet'), ctx, [
      path.join(home, '.dotnet', 'sdk', '9.0.100', 'dotnet.dll'),
    ]);
    expect(output).toContain('GATEHOUSE-DOTNET-SDK-0');
  });

  it('pip.conf and .condarc inside a toolchain that is shown whole (pyenv, miniconda)', async () => {
    const markers = await plant(
      home,
      ['.pyenv/versions/3.12.1/pip.conf', 'miniconda3/.condarc', 'miniconda3/envs/app/pip.conf', 'miniconda3/condarc'],
      'TOOLCHAIN-CONFIG',
    );
    await plant(home, ['.pyenv/versions/3.12.1/bin/python3'], 'PYTHON');
    const ctx = await contextFor();
    const output = await expectUnreadable(markers, home, ctx, [path.join(home, '.pyenv/versions/3.12.1/bin/python3')]);
    expect(output).toContain('GATEHOUSE-PYTHON-0');
  });

  it('nothing of ~/.cache but the caches the list names (deno, Playwright)', async () => {
    const markers = await plant(home, ['.cache/pip/http/token', '.cache/gh/state', '.cache/app/session'], 'CACHE');
    await plant(home, ['.cache/deno/gen/file.js'], 'DENO');
    const ctx = await contextFor();
    const output = await expectUnreadable(markers, home, ctx, [path.join(home, '.cache/deno/gen/file.js')]);
    expect(output).toContain('GATEHOUSE-DENO-0');
  });
});

/** What the review read with ~/.config and ~/.local added (places Settings now refuses, kept by settings from before). */
const REVIEWED_STORES: readonly string[] = [
  '.config/pnpm/rc',
  '.config/sops/age/keys.txt',
  '.config/pip/pip.conf',
  '.config/configstore/firebase-tools.json',
  '.local/share/com.vercel.cli/auth.json',
  '.config/op/config',
  '.config/Bitwarden CLI/data.json',
  '.local/share/keyrings/login.keyring',
  '.config/gh/hosts.yml',
  '.config/hcloud/cli.toml',
  '.config/netlify/config.json',
  '.config/conda/.condarc',
  '.local/share/pnpm/global/5/.npmrc',
];

describe('inside a place added in Settings', () => {
  it('the secret stores the review read stay hidden, with ~/.config and ~/.local shown whole', async () => {
    const markers = await plant(home, REVIEWED_STORES, 'REVIEWED');
    await plant(home, ['.config/nvim/init.lua'], 'NVIM');
    const ctx = await contextFor([path.join(home, '.config'), path.join(home, '.local')]);
    const output = await expectUnreadable(markers, home, ctx, [path.join(home, '.config/nvim/init.lua')]);
    expect(output).toContain('GATEHOUSE-NVIM-0');
  });

  it(".NET's certificate store stays hidden with ~/.dotnet shown whole (a place saved before such places were refused)", async () => {
    const markers = await plant(home, ['.dotnet/corefx/cryptography/x509stores/my/KEY.pfx'], 'DOTNET-STORE');
    await plant(home, ['.dotnet/sdk/9.0.100/dotnet.dll'], 'DOTNET-SDK');
    const ctx = await contextFor([path.join(home, '.dotnet')]);
    const output = await expectUnreadable(markers, home, ctx, [path.join(home, '.dotnet/sdk/9.0.100/dotnet.dll')]);
    expect(output).toContain('GATEHOUSE-DOTNET-SDK-0');
  });

  it('credential files are hidden by name, however deep (within the bound), and the rest is read', async () => {
    const tools = path.join(root, 'tools');
    const markers = await plant(
      tools,
      [
        'etc/npmrc',
        'node/v20/etc/npmrc',
        'venvs/a/pip.conf',
        'conda/.condarc',
        'conda/envs/x/condarc',
        'cfg/.npmrc',
        'cfg/.yarnrc.yml',
        'cfg/.pypirc',
        'cfg/.netrc',
        'a/b/c/d/.git-credentials',
      ],
      'BY-NAME',
    );
    await plant(tools, ['node/v20/bin/tool', 'cfg/settings.toml'], 'TOOLS');
    const ctx = await contextFor([tools]);
    const output = await expectUnreadable(markers, tools, ctx, [
      path.join(tools, 'node/v20/bin/tool'),
      path.join(tools, 'cfg/settings.toml'),
    ]);
    expect(output).toContain('GATEHOUSE-TOOLS-0');
    expect(output).toContain('GATEHOUSE-TOOLS-1');
  });

  it("never hides the workspace's own .npmrc, even in a place shown inside the workspace", async () => {
    await fs.mkdir(path.join(ws, 'tools'));
    await fs.writeFile(path.join(ws, 'tools', '.npmrc'), 'WORKSPACE-NPMRC\n');
    const result = await run(['cat', 'tools/.npmrc'], await contextFor([path.join(ws, 'tools')]));
    expect(result.details).toMatchObject({ exitCode: 0, stdout: 'WORKSPACE-NPMRC\n' });
  });
});

describe("an allowed variable's value", () => {
  it('reaches the command without the credentials of a URL in it; secret-looking names never', async () => {
    const env = {
      ...process.env,
      GOPROXY: 'https://gopher:tok-planted@proxy.example.invalid/go,https://proxy.golang.org|direct',
      PYTHONPATH: '/opt/lib',
      LC_SIGNING_KEY: 'key-planted',
    };
    const result = await run(['env'], await contextFor([], env));
    expect(result.output).not.toMatch(/planted/);
    expect(result.details).toMatchObject({
      stdout: expect.stringContaining('GOPROXY=https://proxy.example.invalid/go,https://proxy.golang.org|direct\n'),
    });
    expect(result.details).toMatchObject({ stdout: expect.stringContaining('PYTHONPATH=/opt/lib\n') });
  });
});

describe('the folders of the person’s own files outside home', () => {
  let mounted: string;
  beforeEach(async () => {
    mounted = path.join('/mnt', `gatehouse-places-${randomBytes(4).toString('hex')}`);
    await fs.mkdir(mounted);
    await fs.writeFile(path.join(mounted, 'Documents.txt'), 'GATEHOUSE-MNT-FILE\n');
  });
  afterEach(async () => {
    await fs.rm(mounted, { recursive: true, force: true });
  });

  it('/mnt and /var/tmp are unreadable, but for the workspace inside /var/tmp, unless a place in them is added', async () => {
    await fs.writeFile(path.join(root, 'beside-the-workspace.txt'), 'GATEHOUSE-VAR-TMP-FILE\n');
    await fs.writeFile(path.join(ws, 'mine.txt'), 'WORKSPACE-FILE\n');
    const script = `cat ${mounted}/Documents.txt ${root}/beside-the-workspace.txt mine.txt; ls /mnt /var/tmp; echo end`;
    const hidden = await run(['sh', '-c', script], await contextFor());
    expect(hidden.output).not.toContain('GATEHOUSE-MNT-FILE');
    expect(hidden.output).not.toContain('GATEHOUSE-VAR-TMP-FILE');
    expect(hidden.output).toContain('WORKSPACE-FILE');
    const listed = await run(['sh', '-c', 'ls -A /mnt'], await contextFor());
    expect(listed.details).toMatchObject({ exitCode: 0, stdout: '' });
    // Nor can it write there.
    const write = await run(['sh', '-c', `echo x > /var/tmp/gatehouse-places-written`], await contextFor());
    expect(write.output.split('\n')[0]).toMatch(/^blocked by the sandbox: write outside the workspace/);
    await expect(fs.access('/var/tmp/gatehouse-places-written')).rejects.toThrow();

    const shown = await run(['sh', '-c', script], await contextFor([mounted]));
    expect(shown.output).toContain('GATEHOUSE-MNT-FILE');
    expect(shown.output).not.toContain('GATEHOUSE-VAR-TMP-FILE');
  });

  it('a program that lives in one (a checkout under /var/tmp, on PATH) still runs, and nothing beside it shows', async () => {
    const tools = path.join(root, 'checkout', 'node_modules', '.bin');
    await fs.mkdir(tools, { recursive: true });
    await fs.writeFile(path.join(tools, 'hello-gatehouse'), '#!/bin/sh\necho HELLO-FROM-VAR-TMP\n', { mode: 0o755 });
    await fs.writeFile(path.join(root, 'checkout', 'secret.txt'), 'GATEHOUSE-BESIDE-THE-TOOL\n');
    const ctx = await contextFor([], { ...process.env, PATH: `${tools}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    const ran = await run(['sh', '-c', `hello-gatehouse; cat ${root}/checkout/secret.txt; echo end`], ctx);
    expect(ran.output).toContain('HELLO-FROM-VAR-TMP');
    expect(ran.output).not.toContain('GATEHOUSE-BESIDE-THE-TOOL');
    // By its own path too, as a command names a program it was given.
    const direct = await run([path.join(tools, 'hello-gatehouse')], ctx);
    expect(direct.output).toContain('HELLO-FROM-VAR-TMP');
  });

  it('the card names none of them, as it names no socket folder', async () => {
    const ctx = await contextFor();
    const plan = (await runTool.plan(parseToolArgs(runTool, { argv: ['true'] }), ctx)) as CommandPlan;
    expect(plan.sandbox).toMatchObject({ hidden: expect.arrayContaining(['/mnt', '/var/tmp']) });
    expect(describeSandbox({ sandbox: plan.sandbox }, home).line).toBe(
      `Confined: writes only in ${ws} (not .git, .gatehouse, .claude); sees the system, not your home; no network; cannot see ${dataDir}`,
    );
  });
});
