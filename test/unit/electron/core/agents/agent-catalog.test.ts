/**
 * The catalog as the installer and the jail read it: every agent pinned to one exact
 * version, its entry inside the pinned package, its key a variable no command ever sees;
 * Claude Code and Gemini CLI held to the gate; Codex and opencode staged (usable only in a place
 * of their own), with the reason.
 * (That each pin and entry is on the npm registry is checked by scripts/install-agents-cache.ts,
 * which CI runs: unit tests stay off the network.)
 */
import { describe, expect, it } from 'vitest';
import { AGENT_CATALOG, catalogSpec, isAgentId } from '../../../../../electron/core/agents/agent-catalog.js';
import { entryPackageDir } from '../../../../../electron/core/agents/agent-folder.js';
import { agentDomainsProblem } from '../../../../../electron/core/agents/agent-domains.js';
import { PROVIDER_KEY_NAMES } from '../../../../../electron/core/tools/command-env.js';
import { AGENT_IDS, AGENT_LABELS } from '../../../../../shared/agents.js';

const specs = AGENT_IDS.map((id) => catalogSpec(id));

describe('the agents catalog', () => {
  it('has one spec per known agent, under its own id', () => {
    expect(Object.keys(AGENT_CATALOG).sort()).toEqual([...AGENT_IDS].sort());
    for (const id of AGENT_IDS) expect(catalogSpec(id).id).toBe(id);
  });

  it('names each agent as the window’s words do (shared/agents.ts)', () => {
    for (const id of AGENT_IDS) expect(catalogSpec(id).label).toBe(AGENT_LABELS[id]);
  });

  it.each(specs)('pins $label to one exact version, the first package’s, which holds the entry', (spec) => {
    expect(spec.version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const pkg of spec.packages) expect(pkg).toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9.-]+@\d+\.\d+\.\d+$/);
    const name = entryPackageDir(spec.entry).slice('node_modules/'.length);
    expect(spec.packages[0]).toBe(`${name}@${spec.version}`);
  });

  it.each(specs)('gives $label domains the proxy reads and a key no command sees', (spec) => {
    expect(agentDomainsProblem(spec.domains)).toBeNull();
    expect(PROVIDER_KEY_NAMES).toContain(spec.keyVariable);
    expect(Object.keys(spec.env)).not.toContain(spec.keyVariable);
  });

  it('pins the versions measured for issues 33 and 34, Codex’s CLI with its adapter', () => {
    expect(specs.map((s) => [s.id, s.packages])).toEqual([
      ['claude-code', ['@agentclientprotocol/claude-agent-acp@0.101.0']],
      ['gemini-cli', ['@google/gemini-cli@0.61.0']],
      ['codex', ['@agentclientprotocol/codex-acp@2.6.0', '@openai/codex@0.166.0']],
      ['opencode', ['opencode-ai@1.18.33']],
    ]);
  });

  it('holds Claude Code and Gemini CLI to the gate, and stages Codex and opencode, saying why', () => {
    const reason = 'it writes and runs by itself, so it works in a place of its own';
    expect(specs.map((s) => [s.id, s.gated, s.staged])).toEqual([
      ['claude-code', true, undefined],
      ['gemini-cli', true, undefined],
      ['codex', { reason }, true],
      ['opencode', { reason }, true],
    ]);
  });

  it('starts Codex with its own sandbox off (the jail is its sandbox) and opencode’s native program with no side traffic', () => {
    expect(catalogSpec('codex').env).toEqual({ INITIAL_AGENT_MODE: 'agent-full-access' });
    expect(catalogSpec('opencode').args).toEqual(['acp']);
    expect(catalogSpec('opencode').native?.['linux-x64']).toBe('node_modules/opencode-linux-x64/bin/opencode');
    expect(catalogSpec('opencode').env).toMatchObject({
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
    });
  });

  it('starts Gemini CLI in ACP mode and keeps Claude Code’s MCP tools in sight, with no side traffic', () => {
    expect(catalogSpec('gemini-cli').args).toEqual(['--acp']);
    expect(catalogSpec('claude-code').env).toEqual({
      ENABLE_TOOL_SEARCH: 'false',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
  });

  it('knows its ids and nothing else', () => {
    expect(AGENT_IDS.every(isAgentId)).toBe(true);
    for (const bad of ['aider', '', 'CLAUDE-CODE', 'toString', 42, null]) expect(isAgentId(bad)).toBe(false);
  });
});
