/**
 * The settings written into an agent's private HOME before it starts: what holds Gemini CLI
 * to the gate (its shell excluded, its folder trust off so the gate's MCP server starts, a
 * missing file read as empty), merged into what is already there.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentHolds, codexConfig, writeHomeSettings } from '../../../../../electron/core/agents/agent-holds.js';

let home: string | undefined;
afterEach(async () => {
  if (home) await fs.rm(home, { recursive: true, force: true });
  home = undefined;
});

describe('Gemini CLI’s holds', () => {
  it('exclude its shell, turn folder trust off, and keep what its settings already held', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    await fs.mkdir(path.join(home, '.gemini'));
    await fs.writeFile(
      path.join(home, '.gemini', 'settings.json'),
      JSON.stringify({ tools: { exclude: ['web_fetch'] }, ui: { theme: 'dark' } }),
    );

    const holds = agentHolds('gemini-cli');
    await writeHomeSettings(home, holds);

    const settings: unknown = JSON.parse(await fs.readFile(path.join(home, '.gemini', 'settings.json'), 'utf8'));
    expect(settings).toEqual({
      tools: {
        exclude: ['web_fetch', 'run_shell_command'],
        allowed: ['write_file', 'search_replace', 'run', 'read_file', 'list_dir', 'propose_apply'].map(
          (t) => `mcp_gatehouse_${t}`,
        ),
      },
      ui: { theme: 'dark' },
      security: { folderTrust: { enabled: false } },
    });
    expect(holds).toMatchObject({ authMethod: 'gemini-api-key', missingFile: 'empty' });
  });

  it('leave a missing file as "Resource not found" for Claude Code', () => {
    expect(agentHolds('claude-code').missingFile).toBeUndefined();
  });
});

describe('settings written into an agent’s home', () => {
  it('set aside a file that is not JSON, never losing it', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    const file = path.join(home, '.claude', 'settings.json');
    await fs.mkdir(path.dirname(file));
    await fs.writeFile(file, '{ not json');

    await writeHomeSettings(home, agentHolds('claude-code'));

    expect(await fs.readFile(`${file}.unreadable`, 'utf8')).toBe('{ not json');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ permissions: { defaultMode: 'default' } });
  });
});

describe('the staged agents’ holds (SPEC §15)', () => {
  it('give Codex a config.toml the app writes whole: its sandbox off inside the jail, asking where it asks', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    const file = path.join(home, '.codex', 'config.toml');
    await fs.mkdir(path.dirname(file));
    await fs.writeFile(file, 'sandbox_mode = "workspace-write"\n');

    await writeHomeSettings(home, agentHolds('codex'));

    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain('sandbox_mode = "danger-full-access"\n');
    expect(text).toContain('approval_policy = "on-request"\n');
    expect(text).not.toContain('workspace-write');
    expect(text).not.toContain('model_provider');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('point Codex at a model endpoint on this machine as a provider of its own, through its forward', () => {
    const text = codexConfig({ modelUrl: 'http://127.0.0.1:3130' });
    expect(text).toContain('model_provider = "gatehouse-local"\n');
    expect(text).toContain('[model_providers.gatehouse-local]\n');
    expect(text).toContain('base_url = "http://127.0.0.1:3130/v1"\n');
    expect(text).toContain('wire_api = "responses"\n');
    // Top-level keys come before the table, or TOML would put them in it.
    expect(text.indexOf('sandbox_mode')).toBeLessThan(text.indexOf('[model_providers'));
    expect(text.indexOf('model_provider =')).toBeLessThan(text.indexOf('['));
  });

  it('turn off what Codex reaches for by itself (its analytics, its plugins), which the jail would refuse', () => {
    for (const modelUrl of [null, 'http://127.0.0.1:3130']) {
      const text = codexConfig({ modelUrl });
      expect(text).toContain('[analytics]\nenabled = false\n');
      expect(text).toContain('[features]\nplugins = false\n');
    }
  });

  it('allow opencode’s edits and commands in its place, ask its web fetches, and keep what it held', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    const file = path.join(home, '.config', 'opencode', 'opencode.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ theme: 'tokyonight', permission: { edit: 'ask' } }));

    await writeHomeSettings(home, agentHolds('opencode'));

    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({
      theme: 'tokyonight',
      permission: { edit: 'allow', bash: 'allow', external_directory: 'allow', webfetch: 'ask' },
      autoupdate: false,
      share: 'disabled',
      disabled_providers: ['opencode'],
    });
  });

  it('offer the staged agents no file callbacks and none of the gate’s tools; the gated ones both', () => {
    expect(agentHolds('codex')).toMatchObject({ clientFiles: false, authMethod: 'api-key' });
    expect(agentHolds('opencode').clientFiles).toBe(false);
    expect(agentHolds('claude-code').clientFiles).toBe(true);
    expect(agentHolds('gemini-cli').clientFiles).toBe(true);
  });
});

describe('an agent’s HOME is its own: the app never follows a link it left there', () => {
  it('refuses a settings folder that is a link, writing nothing where it points', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    const elsewhere = path.join(home, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.symlink(elsewhere, path.join(home, '.codex'));

    await expect(writeHomeSettings(home, agentHolds('codex'))).rejects.toThrow(
      /is not a folder \(a link is not followed\)/,
    );
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });

  it('replaces a settings file that is a link instead of writing through it', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    const target = path.join(home, 'persons-file');
    await fs.writeFile(target, 'the person’s own\n');
    await fs.mkdir(path.join(home, '.codex'));
    await fs.symlink(target, path.join(home, '.codex', 'config.toml'));

    await writeHomeSettings(home, agentHolds('codex'));

    expect(await fs.readFile(target, 'utf8')).toBe('the person’s own\n');
    expect((await fs.lstat(path.join(home, '.codex', 'config.toml'))).isSymbolicLink()).toBe(false);
  });

  it('never reads a JSON settings file through a link into the HOME it writes', async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'holds-'));
    const target = path.join(home, 'persons.json');
    await fs.writeFile(target, JSON.stringify({ token: 'the person’s secret' }));
    const file = path.join(home, '.config', 'opencode', 'opencode.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.symlink(target, file);

    await writeHomeSettings(home, agentHolds('opencode'));

    expect(await fs.readFile(file, 'utf8')).not.toContain('secret');
    expect(JSON.parse(await fs.readFile(target, 'utf8'))).toEqual({ token: 'the person’s secret' });
  });
});
