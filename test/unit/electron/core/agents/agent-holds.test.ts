/**
 * The settings written into an agent's private HOME before it starts: what holds Gemini CLI
 * to the gate (its shell excluded, its folder trust off so the gate's MCP server starts, a
 * missing file read as empty), merged into what is already there.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentHolds, writeHomeSettings } from '../../../../../electron/core/agents/agent-holds.js';

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
        allowed: ['write_file', 'search_replace', 'run', 'read_file', 'list_dir'].map((t) => `mcp_gatehouse_${t}`),
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
