/**
 * Settings → Agents as the host calls it: the four agents listed with what is installed
 * and whether each can be used; install, update and remove through the catalog (here a
 * fake adapter's tarball); each agent's domains validated and kept in the settings file.
 * Bad input is refused in words and changes nothing; a key's value never appears.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCalls } from '../../../../../electron/core/agents/agent-calls.js';
import { catalogSpec } from '../../../../../electron/core/agents/agent-catalog.js';
import { AppSettings } from '../../../../../electron/core/settings/app-settings.js';
import type { AgentSpec } from '../../../../../electron/core/agents/agent-spec.js';
import type { AgentId } from '../../../../../shared/agents.js';
import { fakeSpec, offlineNpmEnv, packFakeAdapter, pathWithoutNpm } from './fake-agent-package.js';

const SECRET = 'sk-ant-test-0123456789abcdef';

let base: string;
let tarball: string;
let count = 0;

beforeAll(async () => {
  base = await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-agent-calls-'));
  tarball = await packFakeAdapter(base, '1.0.0');
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** Agent calls on a fresh data folder; Claude Code and Gemini CLI install the fake adapter. */
async function calls(
  options: {
    env?: NodeJS.ProcessEnv;
    commandEnv?: NodeJS.ProcessEnv;
    catalog?: (id: AgentId) => AgentSpec;
    saved?: Record<string, string>;
  } = {},
): Promise<{ dataDir: string; settings: AppSettings; agents: AgentCalls }> {
  const dataDir = path.join(base, `data-${++count}`);
  const settings = new AppSettings(dataDir);
  await settings.load();
  const commandEnv = options.commandEnv ?? offlineNpmEnv(path.join(base, 'npm-cache'));
  const agents = new AgentCalls({
    dataDir,
    settings,
    env: () => options.env ?? { ANTHROPIC_API_KEY: SECRET },
    commandEnv: () => commandEnv,
    ...(options.saved ? { keySaved: async (v: string) => options.saved![v] } : {}),
    catalog:
      options.catalog ??
      ((id: AgentId) => (catalogSpec(id).gated === true ? fakeSpec(id, tarball, '1.0.0') : catalogSpec(id))),
  });
  return { dataDir, settings, agents };
}

describe('listing the agents', () => {
  it('lists the four, the two that cannot be held to the gate usable in a place of their own', async () => {
    const { agents } = await calls();

    const list = await agents.list();

    expect(list.map((a) => [a.id, a.gated, a.staged, a.unavailable])).toEqual([
      ['claude-code', true, undefined, undefined],
      ['gemini-cli', true, undefined, undefined],
      ['codex', false, 'works in a place of its own', undefined],
      ['opencode', false, 'works in a place of its own', undefined],
    ]);
    expect(list[0]).toEqual({
      id: 'claude-code',
      label: 'Claude Code',
      pinned: '1.0.0',
      installed: null,
      gated: true,
      domains: ['api.anthropic.com'],
      keyVariable: 'ANTHROPIC_API_KEY',
      keySet: true,
    });
  });

  it('says whether a key is set, never its value', async () => {
    const { agents } = await calls({ env: { ANTHROPIC_API_KEY: SECRET, GEMINI_API_KEY: '  ' } });

    const list = await agents.list();

    expect(list.map((a) => [a.id, a.keySet])).toEqual([
      ['claude-code', true],
      ['gemini-cli', false],
      ['codex', false],
      ['opencode', true],
    ]);
    expect(JSON.stringify(list)).not.toContain(SECRET);
  });

  it('says which saved key an agent uses when its variable is not set, and none when it is', async () => {
    const { agents } = await calls({
      env: { GEMINI_API_KEY: 'g' },
      saved: { ANTHROPIC_API_KEY: 'Anthropic', GEMINI_API_KEY: 'Google' },
    });

    const list = await agents.list();

    expect(list.map((a) => [a.id, a.keySet, a.keySaved])).toEqual([
      ['claude-code', false, 'Anthropic'],
      ['gemini-cli', true, undefined],
      ['codex', false, undefined],
      ['opencode', false, 'Anthropic'],
    ]);
  });

  it('marks the agents unavailable, saying why, when npm is missing', async () => {
    const bin = await pathWithoutNpm(path.join(base, `node-only-${count}`));
    const { agents } = await calls({ commandEnv: { PATH: bin } });

    const list = await agents.list();

    expect(list[0]?.unavailable).toBe('npm is not on the PATH: install npm (it comes with Node.js) to install agents');
    expect(await agents.tools()).toEqual({ missing: list[0]?.unavailable });
    expect(list[2]?.unavailable).toBe(list[0]?.unavailable);
  });

  it('greys, with its reason, an agent that is neither held to the gate nor staged', async () => {
    const reason = 'cannot be held to the gate';
    const { agents } = await calls({ catalog: (id) => ({ ...catalogSpec(id), gated: { reason }, staged: undefined }) });

    const list = await agents.list();

    expect(list.map((a) => [a.id, a.staged, a.unavailable])).toEqual([
      ['claude-code', undefined, reason],
      ['gemini-cli', undefined, reason],
      ['codex', undefined, reason],
      ['opencode', undefined, reason],
    ]);
  });
});

describe('installing and removing', () => {
  it('installs at the pinned version, shows it, and removes it', async () => {
    const { agents } = await calls();
    const phases: string[] = [];

    const installed = await agents.install('gemini-cli', (p) => phases.push(p.phase));
    const tools = await agents.tools();
    expect(tools).toEqual({ node: expect.stringMatching(/\/node$/), npm: expect.stringMatching(/\/npm$/) });

    expect(installed).toEqual({ version: '1.0.0' });
    expect(phases.at(-1)).toBe('done');
    expect((await agents.installed('gemini-cli'))?.version).toBe('1.0.0');
    expect((await agents.list()).find((a) => a.id === 'gemini-cli')?.installed).toEqual({ version: '1.0.0' });

    await agents.remove('gemini-cli');

    expect((await agents.list()).find((a) => a.id === 'gemini-cli')?.installed).toBeNull();
    expect(await agents.installed('gemini-cli')).toBeNull();
  });

  it('refuses to install an agent that is neither held to the gate nor staged, creating nothing', async () => {
    const { dataDir, agents } = await calls({
      catalog: (id) => ({ ...catalogSpec(id), gated: { reason: 'cannot be held to the gate' }, staged: undefined }),
    });

    await expect(agents.install('codex', () => {})).rejects.toThrow('Codex cannot be held to the gate');
    await expect(fs.stat(path.join(dataDir, 'agents'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses an agent it does not know, in words', async () => {
    const { agents } = await calls();

    await expect(agents.install('aider', () => {})).rejects.toThrow(
      'there is no agent "aider"; Gatehouse knows claude-code, gemini-cli, codex, opencode',
    );
    await expect(agents.remove('../x')).rejects.toThrow(/there is no agent "..\/x"/);
    expect(() => agents.spec(42)).toThrow(/there is no agent 42/);
  });
});

describe('an agent’s domains', () => {
  it('are the catalog’s until the person changes them', async () => {
    const { agents } = await calls();

    expect(agents.spec('claude-code').domains).toEqual(['api.anthropic.com']);
    expect(agents.spec('gemini-cli').domains).toEqual(['generativelanguage.googleapis.com']);
  });

  it('are saved in the settings file, normalized, and read back from it', async () => {
    const { dataDir, agents } = await calls();

    const stored = await agents.setDomains('claude-code', ['API.Anthropic.com.', '*.example.org', 'api.anthropic.com']);

    expect(stored).toEqual(['api.anthropic.com', '*.example.org']);
    expect(agents.spec('claude-code').domains).toEqual(['api.anthropic.com', '*.example.org']);
    expect(agents.spec('gemini-cli').domains).toEqual(['generativelanguage.googleapis.com']);
    const reread = new AppSettings(dataDir);
    expect(await reread.load()).toBeNull();
    expect(reread.current().agentDomains).toEqual({ 'claude-code': ['api.anthropic.com', '*.example.org'] });
  });

  it.each([
    [['10.0.0.1'], '"10.0.0.1" is an IP address: name the host by its domain'],
    [['[::1]'], '"[::1]" is an IP address: name the host by its domain'],
    [['localhost'], '"localhost" is this machine: an agent never reaches it'],
    [['api.localhost'], '"api.localhost" is this machine: an agent never reaches it'],
    [['*'], '"*" would let the agent reach any host: name its model’s host instead'],
    [['*.com'], '"*.com" is too broad'],
    [['api.*.example.com'], 'a wildcard is allowed only as the whole first label'],
    [['a*.example.com'], 'a wildcard is allowed only as the whole first label'],
    [['example.com:8443'], '"example.com:8443" has a port: write the host name alone'],
    [['https://api.anthropic.com/v1'], 'is a URL'],
    [['bad_name.com'], 'is not a valid domain name'],
    [['anthropic'], 'is not a full domain name'],
    [[''], 'an entry is empty'],
    [[], 'an agent needs at least one domain'],
    ['api.anthropic.com', 'the domains must be a list of host names'],
    [[42], 'the domains must be a list of host names'],
    [Array.from({ length: 65 }, (_, i) => `h${i}.example.com`), 'at most 64 domains (got 65)'],
  ])('refuses %j and changes nothing', async (domains, words) => {
    const { dataDir, agents } = await calls();
    await agents.setDomains('claude-code', ['api.anthropic.com', 'kept.example.com']);
    const before = await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8');

    await expect(agents.setDomains('claude-code', domains)).rejects.toThrow(words);

    expect(await fs.readFile(path.join(dataDir, 'settings.json'), 'utf8')).toBe(before);
    expect(agents.spec('claude-code').domains).toEqual(['api.anthropic.com', 'kept.example.com']);
  });

  it('refuses domains for an agent it does not know', async () => {
    const { agents } = await calls();

    await expect(agents.setDomains('nobody', ['api.anthropic.com'])).rejects.toThrow(/there is no agent "nobody"/);
  });

  it('falls back to the catalog’s list when the file holds one the proxy cannot read', async () => {
    const { dataDir } = await calls();
    await fs.mkdir(dataDir, { recursive: true });
    await fs.writeFile(
      path.join(dataDir, 'settings.json'),
      JSON.stringify({ agentDomains: { 'claude-code': ['127.0.0.1'] } }),
    );
    const { agents } = await callsOn(dataDir);

    expect(agents.spec('claude-code').domains).toEqual(['api.anthropic.com']);
  });
});

/** Agent calls on an existing data folder. */
async function callsOn(dataDir: string): Promise<{ agents: AgentCalls }> {
  const settings = new AppSettings(dataDir);
  await settings.load();
  const env = offlineNpmEnv(path.join(base, 'npm-cache'));
  return { agents: new AgentCalls({ dataDir, settings, env: () => ({}), commandEnv: () => env }) };
}
