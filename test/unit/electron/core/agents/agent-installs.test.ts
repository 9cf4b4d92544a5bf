/**
 * The installer runs the real npm on a tarball of a fake adapter (no registry, offline):
 * an install says how it goes and ends with the pinned version in place; an update swaps
 * the new one in; a failure of any kind says why and leaves the previous install as it
 * was; one install at a time per agent; a removal keeps the agent's HOME unless asked.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFolders } from '../../../../../electron/core/agents/agent-folder.js';
import { AgentInstalls, type AgentInstallsOptions } from '../../../../../electron/core/agents/agent-installs.js';
import type { AgentProgress } from '../../../../../shared/agents.js';
import { FAKE_ENTRY, fakeNpm, fakeSpec, offlineNpmEnv, packFakeAdapter, pathWithoutNpm } from './fake-agent-package.js';
import { startFakeRegistry } from './fake-registry.js';

let base: string;
let v1: string;
let v2: string;
let count = 0;

beforeAll(async () => {
  base = await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-agent-installs-'));
  v1 = await packFakeAdapter(base, '1.0.0');
  v2 = await packFakeAdapter(base, '2.0.0');
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** A fresh agents root and an installer on it. */
async function installer(
  options: Partial<AgentInstallsOptions> = {},
): Promise<{ root: string; installs: AgentInstalls }> {
  const root = path.join(base, `root-${++count}`);
  await fs.mkdir(root);
  const env = offlineNpmEnv(path.join(base, 'npm-cache'));
  return { root, installs: new AgentInstalls({ root, env: () => env, ...options }) };
}

function recorder(): { seen: AgentProgress[]; onProgress: (p: AgentProgress) => void } {
  const seen: AgentProgress[] = [];
  return { seen, onProgress: (p) => seen.push(p) };
}

/** What is in the agent's folder besides pkg and home: leftovers of an install. */
async function leftovers(root: string): Promise<string[]> {
  const names = await fs.readdir(agentFolders(root, 'claude-code').dir).catch(() => []);
  return names.filter((n) => n !== 'pkg' && n !== 'home');
}

describe('installing an agent', () => {
  it('installs the pinned package into <root>/<id>/pkg, saying how it goes', async () => {
    const { root, installs } = await installer();
    const { seen, onProgress } = recorder();

    const done = await installs.install(fakeSpec('claude-code', v1, '1.0.0'), onProgress);

    const prefix = path.join(root, 'claude-code', 'pkg');
    expect(done).toEqual({
      version: '1.0.0',
      prefix,
      entryPath: path.join(prefix, 'node_modules/fake-acp-adapter/dist/index.js'),
    });
    expect(execFileSync(process.execPath, [done.entryPath], { encoding: 'utf8' })).toBe('fake adapter 1.0.0\n');
    expect(await installs.installed(fakeSpec('claude-code', v1, '1.0.0'))).toEqual(done);
    const phases = [...new Set(seen.map((p) => p.phase))];
    expect(phases).toEqual(['resolving', 'downloading', 'checking', 'done']);
    expect(seen.every((p) => p.id === 'claude-code' && p.line.length > 0)).toBe(true);
    expect(seen.at(-1)).toEqual({
      id: 'claude-code',
      phase: 'done',
      fraction: 1,
      line: 'Claude Code 1.0.0 is installed',
    });
    expect(await leftovers(root)).toEqual([]);
  });

  it('counts the packages fetched from a registry against the tree it resolved', async () => {
    const helper = await packFakeAdapter(base, '1.0.0', { name: 'fake-acp-helper' });
    const dependencies = { 'fake-acp-helper': '1.0.0' };
    const adapter = await packFakeAdapter(base, '1.5.0', { dependencies });
    const registry = await startFakeRegistry([
      { name: 'fake-acp-adapter', version: '1.5.0', tarball: adapter, dependencies },
      { name: 'fake-acp-helper', version: '1.0.0', tarball: helper },
    ]);
    try {
      const root = path.join(base, `root-${++count}`);
      // A cache of its own, so every tarball really comes from the registry.
      const env = { ...process.env, npm_config_registry: registry.url, npm_config_cache: path.join(root, 'cache') };
      const installs = new AgentInstalls({ root, env: () => env });
      const { seen, onProgress } = recorder();
      const spec = { ...fakeSpec('gemini-cli', '', '1.5.0'), packages: ['fake-acp-adapter@1.5.0'], entry: FAKE_ENTRY };

      expect((await installs.install(spec, onProgress)).version).toBe('1.5.0');

      expect(seen.filter((p) => p.phase === 'resolving').map((p) => p.line)).toContain('Resolving fake-acp-adapter');
      const fetching = seen.filter((p) => p.phase === 'downloading' || p.phase === 'installing');
      expect(fetching.map((p) => [p.phase, p.fraction, p.line])).toEqual([
        ['downloading', 0, 'Downloading Gemini CLI (2 packages)'],
        ['downloading', 0.5, 'Downloading Gemini CLI: 1 of 2 packages'],
        ['installing', 1, 'Unpacking Gemini CLI'],
      ]);
    } finally {
      await registry.close();
    }
  });

  it('updates by installing the new pin the same way, leaving nothing of the old beside it', async () => {
    const { root, installs } = await installer();
    await installs.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});

    const done = await installs.install(fakeSpec('claude-code', v2, '2.0.0'), () => {});

    expect(done.version).toBe('2.0.0');
    expect(execFileSync(process.execPath, [done.entryPath], { encoding: 'utf8' })).toBe('fake adapter 2.0.0\n');
    expect(await leftovers(root)).toEqual([]);
  });

  it('leaves the previous install untouched when npm cannot install the new one, and says why', async () => {
    const { root, installs } = await installer();
    const old = await installs.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});
    const bad = path.join(base, 'broken-3.0.0.tgz');
    await fs.writeFile(bad, 'this is not a gzip file');
    const { seen, onProgress } = recorder();

    const failed = installs.install(fakeSpec('claude-code', bad, '3.0.0'), onProgress);

    await expect(failed).rejects.toThrow(
      /^Claude Code 3\.0\.0 was not installed: npm install failed \(exit \d+\): .+; Claude Code 1\.0\.0 is still installed, untouched$/,
    );
    expect(seen.at(-1)?.phase).toBe('failed');
    expect(await installs.installed(fakeSpec('claude-code', v1, '1.0.0'))).toEqual(old);
    expect(execFileSync(process.execPath, [old.entryPath], { encoding: 'utf8' })).toBe('fake adapter 1.0.0\n');
    expect(await leftovers(root)).toEqual([]);
  });

  it('keeps the previous install when npm exits 1, quoting npm’s error lines', async () => {
    const { root, installs: first } = await installer();
    await first.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});
    const bin = path.join(base, `failing-npm-${count}`);
    await fakeNpm(bin, 'echo "npm error code E404" >&2\necho "npm error 404 Not Found - GET nope" >&2\nexit 1');
    const env = offlineNpmEnv(path.join(base, 'npm-cache'), `${bin}:${process.env.PATH}`);
    const installs = new AgentInstalls({ root, env: () => env });

    await expect(installs.install(fakeSpec('claude-code', v2, '2.0.0'), () => {})).rejects.toThrow(
      'Claude Code 2.0.0 was not installed: npm install failed (exit 1): code E404 404 Not Found - GET nope; Claude Code 1.0.0 is still installed, untouched',
    );
    expect((await installs.installed(fakeSpec('claude-code', v1, '1.0.0')))?.version).toBe('1.0.0');
    expect(await leftovers(root)).toEqual([]);
  });

  it('refuses an install whose package is not the pinned version, changing nothing', async () => {
    const { root, installs } = await installer();

    await expect(installs.install(fakeSpec('claude-code', v1, '1.0.1'), () => {})).rejects.toThrow(
      'Claude Code 1.0.1 was not installed: npm installed version 1.0.0, not the pinned 1.0.1; nothing was changed',
    );
    expect(await installs.installed(fakeSpec('claude-code', v1, '1.0.0'))).toBeNull();
    expect(await leftovers(root)).toEqual([]);
  });

  it('says in one line that npm is missing, and creates nothing', async () => {
    const { root } = await installer();
    const bin = await pathWithoutNpm(path.join(base, `node-only-${count}`));
    const installs = new AgentInstalls({ root, env: () => ({ PATH: bin }) });
    const { seen, onProgress } = recorder();

    await expect(installs.install(fakeSpec('claude-code', v1, '1.0.0'), onProgress)).rejects.toThrow(
      'Claude Code 1.0.0 was not installed: npm is not on the PATH: install npm (it comes with Node.js) to install agents; nothing was changed',
    );
    expect(seen.map((p) => p.phase)).toEqual(['failed']);
    expect(await fs.readdir(root)).toEqual([]);
  });

  it('says in one line that node is missing', async () => {
    const { root } = await installer();
    const installs = new AgentInstalls({ root, env: () => ({ PATH: path.join(base, 'nowhere') }) });

    expect(await installs.tools()).toEqual({
      missing: 'node is not on the PATH: install Node.js 22 or later to install agents',
    });
    await expect(installs.install(fakeSpec('gemini-cli', v1, '1.0.0'), () => {})).rejects.toThrow(
      /node is not on the PATH/,
    );
  });

  it('refuses a second install of the same agent while one runs, in words, and lets the first finish', async () => {
    const { installs } = await installer();

    const first = installs.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});
    const second = installs.install(fakeSpec('claude-code', v2, '2.0.0'), () => {});

    await expect(second).rejects.toThrow('Claude Code is already being installed: wait for it to finish');
    expect((await first).version).toBe('1.0.0');
    expect(installs.busy('claude-code')).toBe(false);
  });

  it('stops an install under way when the app quits, keeping the previous install', async () => {
    const { root, installs: first } = await installer();
    await first.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});
    const bin = path.join(base, `slow-npm-${count}`);
    await fakeNpm(bin, 'sleep 120');
    const env = offlineNpmEnv(path.join(base, 'npm-cache'), `${bin}:${process.env.PATH}`);
    const installs = new AgentInstalls({ root, env: () => env });
    const { seen, onProgress } = recorder();

    const running = installs.install(fakeSpec('claude-code', v2, '2.0.0'), onProgress);
    await waitUntil(() => seen.some((p) => p.phase === 'resolving'));
    await installs.stopAll();

    await expect(running).rejects.toThrow(
      'Claude Code 2.0.0 was not installed: the install was cancelled; Claude Code 1.0.0 is still installed, untouched',
    );
    expect((await installs.installed(fakeSpec('claude-code', v1, '1.0.0')))?.version).toBe('1.0.0');
    expect(await leftovers(root)).toEqual([]);
  });

  it('refuses a spec whose package would be read as an npm flag', async () => {
    const { installs } = await installer();

    await expect(
      installs.install(fakeSpec('claude-code', '--registry=http://evil', '1.0.0'), () => {}),
    ).rejects.toThrow('Claude Code cannot be installed: a package name is empty or starts with "-"');
  });
});

describe('removing an agent', () => {
  it('deletes its install and keeps its HOME, with its login, unless asked', async () => {
    const { root, installs } = await installer();
    await installs.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});
    const { home, prefix } = agentFolders(root, 'claude-code');
    await fs.mkdir(path.join(home, '.claude'), { recursive: true });
    await fs.writeFile(path.join(home, '.claude.json'), '{"login":"kept"}');

    await installs.remove('claude-code');

    expect(await installs.installed(fakeSpec('claude-code', v1, '1.0.0'))).toBeNull();
    await expect(fs.stat(prefix)).rejects.toThrow(/ENOENT/);
    expect(await fs.readFile(path.join(home, '.claude.json'), 'utf8')).toBe('{"login":"kept"}');

    await installs.remove('claude-code', { home: true });

    await expect(fs.stat(home)).rejects.toThrow(/ENOENT/);
    expect(await leftovers(root)).toEqual([]);
  });

  it('refuses to remove an agent while it is being installed', async () => {
    const { installs } = await installer();
    const running = installs.install(fakeSpec('claude-code', v1, '1.0.0'), () => {});

    await expect(installs.remove('claude-code')).rejects.toThrow(/being installed: wait for it to finish/);
    expect((await running).version).toBe('1.0.0');
  });
});

/** Polls until `ready` holds (generous: the machine may be loaded). */
async function waitUntil(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 20) {
    if (waited > 20_000) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
