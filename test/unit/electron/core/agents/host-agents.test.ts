/**
 * The host's `agents.*` calls (SPEC §14): refused in words when the build has no agents,
 * routed to the injected AgentCallsPort when it has, install progress pushed as it goes, bad
 * requests refused before they reach the installer, and `sessions.open` with an agent
 * keeps who drives the session in its summary and meta.json, across a restart.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentId, AgentListing, AgentProgress } from '../../../../../shared/agents.js';
import type { Push, SessionSummary } from '../../../../../shared/contract.js';
import type { AgentCallsPort } from '../../../../../electron/core/agents/agent-calls-port.js';
import { createCore, type Core, type CoreOptions } from '../../../../../electron/core/core.js';

let root: string | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  if (root) await fs.rm(root, { recursive: true, force: true });
  root = undefined;
});

async function boot(options: Partial<CoreOptions> = {}): Promise<Core> {
  root ??= await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-host-agents-'));
  await fs.mkdir(path.join(root, 'ws'), { recursive: true });
  core = await createCore({
    dataDir: path.join(root, 'data'),
    env: {},
    home: root,
    cipher: null,
    durability: 'none',
    ...options,
  });
  return core;
}

function listing(id: AgentId, over: Partial<AgentListing> = {}): AgentListing {
  return {
    id,
    label: id === 'claude-code' ? 'Claude Code' : id,
    pinned: '0.10.0',
    installed: null,
    gated: true,
    domains: ['api.anthropic.com'],
    keyVariable: 'ANTHROPIC_API_KEY',
    keySet: false,
    ...over,
  };
}

/** A recording fake of the installer's port. */
function fakeAgents(agents: AgentListing[]): AgentCallsPort & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    calls,
    list: async () => agents,
    install: async (id, onProgress) => {
      calls.push(['install', id]);
      onProgress({ id, phase: 'downloading', fraction: 0.5, line: 'fetching 3 of 6 packages' });
      onProgress({ id, phase: 'done', line: 'installed 0.10.0' });
      return { version: '0.10.0' };
    },
    remove: async (id, opts) => void calls.push(['remove', id, opts]),
    setDomains: async (id, domains) => {
      calls.push(['setDomains', id, domains]);
      return domains;
    },
  };
}

describe('the host and external agents', () => {
  it('answers every agents call in words when the build has none, and opens no agent session', async () => {
    const c = await boot({ agents: null });
    for (const [name, payload] of [
      ['agents.list', {}],
      ['agents.install', { id: 'claude-code' }],
      ['agents.remove', { id: 'claude-code' }],
      ['agents.setDomains', { id: 'claude-code', domains: [] }],
    ] as const) {
      expect(await c.host.call(name, payload)).toEqual({
        ok: false,
        error: 'external agents are not available in this build',
      });
    }
    const open = await c.host.call('sessions.open', { workspace: path.join(root!, 'ws'), agent: 'claude-code' });
    expect(open).toEqual({ ok: false, error: 'external agents are not available in this build' });
    expect(await c.host.call('sessions.list', {})).toEqual({ ok: true, data: [] });
  });

  it('routes the calls to the installer and pushes install progress as it goes', async () => {
    const agents = fakeAgents([listing('claude-code')]);
    const c = await boot({ agents });
    const pushes: Push[] = [];
    c.host.subscribe((p) => pushes.push(p));
    expect(await c.host.call('agents.list', {})).toEqual({ ok: true, data: { agents: [listing('claude-code')] } });
    expect(await c.host.call('agents.install', { id: 'claude-code' })).toEqual({
      ok: true,
      data: { version: '0.10.0' },
    });
    const progress = pushes.filter((p) => p.name === 'agents.progress').map((p) => p.payload as AgentProgress);
    expect(progress.map((p) => p.phase)).toEqual(['downloading', 'done']);
    expect(await c.host.call('agents.remove', { id: 'claude-code', home: true })).toEqual({
      ok: true,
      data: { removed: true },
    });
    expect(await c.host.call('agents.remove', { id: 'claude-code' })).toMatchObject({ ok: true });
    expect(await c.host.call('agents.setDomains', { id: 'claude-code', domains: ['a.example'] })).toEqual({
      ok: true,
      data: { domains: ['a.example'] },
    });
    expect(agents.calls).toEqual([
      ['install', 'claude-code'],
      ['remove', 'claude-code', { home: true }],
      ['remove', 'claude-code', { home: false }],
      ['setDomains', 'claude-code', ['a.example']],
    ]);
  });

  it('refuses an unknown agent, too many domains, or a name too long, before the installer sees them', async () => {
    const agents = fakeAgents([listing('claude-code')]);
    const c = await boot({ agents });
    const unknown = await c.host.call('agents.install', { id: 'aider' });
    expect(unknown).toMatchObject({ ok: false });
    expect((unknown as { error: string }).error).toContain('agent must be one of: claude-code, gemini-cli');
    const many = await c.host.call('agents.setDomains', {
      id: 'claude-code',
      domains: Array.from({ length: 51 }, (_, i) => `h${i}.example`),
    });
    expect((many as { error: string }).error).toContain('at most 50 domains');
    const long = await c.host.call('agents.setDomains', { id: 'claude-code', domains: [`${'a'.repeat(250)}.com`] });
    expect((long as { error: string }).error).toContain('longer than 253 characters');
    expect(agents.calls).toEqual([]);
  });

  it('opens a session driven by an installed agent, and keeps it in the summary across a restart', async () => {
    const installed = listing('claude-code', { installed: { version: '0.10.0' } });
    let c = await boot({ agents: fakeAgents([installed]) });
    const open = await c.host.call('sessions.open', { workspace: path.join(root!, 'ws'), agent: 'claude-code' });
    expect(open).toMatchObject({
      ok: true,
      data: { agent: { id: 'claude-code', label: 'Claude Code', version: '0.10.0' } },
    });
    const id = (open as { data: SessionSummary }).data.id;
    await c.dispose();
    c = await boot({ agents: fakeAgents([installed]) });
    const listed = await c.host.call('sessions.list', {});
    const reopened = (listed as { data: SessionSummary[] }).data.find((s) => s.id === id);
    expect(reopened?.agent).toEqual({ id: 'claude-code', label: 'Claude Code', version: '0.10.0' });
    const plain = await c.host.call('sessions.open', { workspace: path.join(root!, 'ws') });
    expect((plain as { data: SessionSummary }).data.agent).toBeUndefined();
  });

  it('refuses to open a session for an agent not installed, or not held to the gate, and makes none', async () => {
    const c = await boot({
      agents: fakeAgents([
        listing('claude-code'),
        listing('codex', { gated: false, unavailable: 'it writes by itself whatever the client says' }),
      ]),
    });
    const ws = path.join(root!, 'ws');
    expect(await c.host.call('sessions.open', { workspace: ws, agent: 'claude-code' })).toEqual({
      ok: false,
      error: 'Claude Code is not installed: install it in Settings → Agents',
    });
    expect(await c.host.call('sessions.open', { workspace: ws, agent: 'codex' })).toEqual({
      ok: false,
      error: 'codex cannot drive a session here: it writes by itself whatever the client says',
    });
    expect(await c.host.call('sessions.list', {})).toEqual({ ok: true, data: [] });
  });
});
