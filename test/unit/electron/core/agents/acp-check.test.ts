/**
 * An install is checked to speak ACP before it replaces anything: the new adapter is
 * started in the session's jail (no workspace to write, no network, no key), sent
 * `initialize` and stopped. The real, pinned Claude Code from the agent cache passes; a
 * version that answers with another protocol, prints something else, exits or never
 * answers fails the `checking` phase with its line, and the install before it stays as it
 * was, with nothing left behind.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSpeaksAcp } from '../../../../../electron/core/agents/acp-check.js';
import { AgentCalls } from '../../../../../electron/core/agents/agent-calls.js';
import { catalogSpec } from '../../../../../electron/core/agents/agent-catalog.js';
import { agentFolders } from '../../../../../electron/core/agents/agent-folder.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { AppSettings } from '../../../../../electron/core/settings/app-settings.js';
import type { AgentProgress } from '../../../../../shared/agents.js';
import { cachedAgent } from '../../../../support/agent-cache.js';
import { CLAUDE_CODE_SPEC, claudeCodeInstalled } from './claude-code-cache.js';
import { fakeSpec, offlineNpmEnv, packFakeAdapter, type FakeBehaviour } from './fake-agent-package.js';

const SECRET = 'sk-ant-test-acp-check-0123456789';
/** Short for the fakes that never answer; the real adapter gets the app's bound. */
const FAKE_BOUND_MS = 4_000;

let base: string;
let count = 0;
const sandboxes: BwrapSandbox[] = [];

beforeAll(async () => {
  base = await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-acp-check-'));
});

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.dispose()));
  await fs.rm(base, { recursive: true, force: true });
});

function sandboxFor(dataDir: string): BwrapSandbox {
  const sandbox = new BwrapSandbox({ dataDir, home: path.join(base, 'home'), env: process.env });
  sandboxes.push(sandbox);
  return sandbox;
}

/** A fresh data folder whose Claude Code installs the fake adapter at `version`, checked in a real jail. */
async function calls(
  tarballs: Map<string, string>,
): Promise<{ dataDir: string; agents: AgentCalls; pin: (version: string) => void }> {
  const dataDir = path.join(base, `data-${++count}`);
  await fs.mkdir(dataDir, { recursive: true });
  const settings = new AppSettings(dataDir);
  await settings.load();
  const env = { ...offlineNpmEnv(path.join(base, 'npm-cache')), ANTHROPIC_API_KEY: SECRET };
  let pinned = '1.0.0';
  const agents = new AgentCalls({
    dataDir,
    settings,
    env: () => env,
    commandEnv: () => env,
    catalog: (id) => (id === 'claude-code' ? fakeSpec(id, tarballs.get(pinned)!, pinned) : catalogSpec(id)),
    sandbox: sandboxFor(dataDir),
    acpCheckTimeoutMs: FAKE_BOUND_MS,
  });
  return { dataDir, agents, pin: (v) => (pinned = v) };
}

/** Every file under `dir` with its bytes, to see that a failed update changed nothing. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = await fs.readFile(file, 'base64');
  }
  return out;
}

/** What the agent's folder and the run folder hold besides pkg and home: leftovers of a check. */
async function leftovers(dataDir: string): Promise<string[]> {
  const mine = await fs.readdir(agentFolders(path.join(dataDir, 'agents'), 'claude-code').dir);
  const run = await fs.readdir(path.join(dataDir, 'agents', 'run')).catch(() => []);
  return [...mine.filter((n) => n !== 'pkg' && n !== 'home'), ...run];
}

describe('the real Claude Code adapter', () => {
  it('passes the check: it answers initialize with the protocol Gatehouse speaks', async () => {
    const installed = claudeCodeInstalled();
    const dataDir = path.join(base, 'real');
    await fs.mkdir(dataDir, { recursive: true });

    const checked = await checkSpeaksAcp({
      spec: CLAUDE_CODE_SPEC,
      prefix: installed.prefix,
      version: installed.version,
      node: process.execPath,
      dataDir,
      sandbox: sandboxFor(dataDir),
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: SECRET },
    });

    expect(checked.protocolVersion).toBe(1);
    // How long the check adds to an install (the report quotes it).
    console.log(`ACP check of Claude Code ${installed.version}: ${checked.ms} ms`);
    expect(await fs.readdir(path.join(dataDir, 'agents', 'claude-code'))).toEqual(['home']);
  }, 60_000);
});

describe('the real staged agents (Codex, opencode)', () => {
  // They start only in a place of their own: the check gives each an empty one, and removes it.
  it.each(['codex', 'opencode'] as const)(
    '%s passes the check in an empty place of its own',
    async (id) => {
      const installed = await cachedAgent(id);
      const dataDir = path.join(base, `real-${id}`);
      await fs.mkdir(dataDir, { recursive: true });

      const checked = await checkSpeaksAcp({
        spec: catalogSpec(id),
        prefix: installed.prefix,
        version: installed.version,
        node: process.execPath,
        dataDir,
        sandbox: sandboxFor(dataDir),
        env: { PATH: process.env.PATH },
      });

      expect(checked.protocolVersion).toBe(1);
      console.log(`ACP check of ${id} ${installed.version}: ${checked.ms} ms`);
      expect(await fs.readdir(path.join(dataDir, 'agents', id))).toEqual(['home']);
    },
    60_000,
  );
});

describe('an install that does not speak ACP', () => {
  const tarballs = new Map<string, string>();
  const bad: [FakeBehaviour, string, RegExp][] = [
    ['old-protocol', '2.0.0-old', /it speaks protocol version 99, Gatehouse speaks 1/],
    ['garbage', '2.0.0-garbage', /did not answer initialize within 4 s/],
    ['exit', '2.0.0-exit', /the agent stopped \(exit code 3\): fake adapter 2\.0\.0-exit: cannot find module/],
    ['hang', '2.0.0-hang', /did not answer initialize within 4 s/],
  ];

  beforeAll(async () => {
    tarballs.set('1.0.0', await packFakeAdapter(base, '1.0.0', { behaviour: 'acp' }));
    for (const [behaviour, version] of bad) tarballs.set(version, await packFakeAdapter(base, version, { behaviour }));
  }, 60_000);

  it('an adapter that answers initialize is installed, and the check leaves nothing behind', async () => {
    const { dataDir, agents } = await calls(tarballs);
    const seen: AgentProgress[] = [];

    expect(await agents.install('claude-code', (p) => seen.push(p))).toEqual({ version: '1.0.0' });

    expect(seen.map((p) => p.line)).toContain('Checking that Claude Code 1.0.0 speaks ACP');
    expect(seen.at(-1)).toMatchObject({ phase: 'done', line: 'Claude Code 1.0.0 is installed' });
    expect(await leftovers(dataDir)).toEqual([]);
  }, 120_000);

  it.each(bad)(
    '%s: the update fails its check in one line and the install before it stays',
    async (_, version, why) => {
      const { dataDir, agents, pin } = await calls(tarballs);
      await agents.install('claude-code', () => {});
      const prefix = agentFolders(path.join(dataDir, 'agents'), 'claude-code').prefix;
      const before = await snapshot(prefix);
      pin(version);
      const seen: AgentProgress[] = [];

      const failed = agents.install('claude-code', (p) => seen.push(p));

      await expect(failed).rejects.toThrow(
        `Claude Code ${version} was not installed: Claude Code ${version} did not answer ACP's initialize: `,
      );
      const last = seen.at(-1)!;
      expect(last.phase).toBe('failed');
      expect(last.line).toMatch(why);
      expect(last.line).toMatch(/; Claude Code 1\.0\.0 is still installed, untouched$/);
      expect(seen.filter((p) => p.phase !== 'failed').map((p) => p.phase)).toContain('checking');
      expect(JSON.stringify(seen)).not.toContain(SECRET);
      expect(await agents.installed('claude-code')).toMatchObject({ version: '1.0.0' });
      expect(await snapshot(prefix)).toEqual(before);
      expect(await leftovers(dataDir)).toEqual([]);
    },
    120_000,
  );

  it('a first install that does not speak ACP leaves no install at all', async () => {
    const { dataDir, agents, pin } = await calls(tarballs);
    pin('2.0.0-exit');

    await expect(agents.install('claude-code', () => {})).rejects.toThrow(/; nothing was changed$/);

    expect(await agents.installed('claude-code')).toBeNull();
    expect(await leftovers(dataDir)).toEqual([]);
  }, 120_000);
});
