/**
 * The agents Gatehouse knows (SPEC §14), each pinned to one version checked against the
 * npm registry (`scripts/install-agents-cache.ts` checks every pin and entry there again).
 * Claude Code and Gemini CLI can be held to the gate: jailed, with the gate's MCP server as
 * their only way to change anything. Codex and opencode write and run by themselves
 * whatever the client says, so they wait for a session place of their own (SPEC §15).
 */
import { AGENT_IDS, type AgentId } from '../../../shared/agents.js';
import type { AgentSpec } from './agent-spec.js';

const NOT_GATED = { reason: 'cannot be held to the gate yet; needs a staged workspace' };

export const AGENT_CATALOG: Readonly<Record<AgentId, AgentSpec>> = {
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    version: '0.101.0',
    // The adapter pins @anthropic-ai/claude-agent-sdk, which brings the Claude Code CLI as a
    // native binary in an optional package per platform: npm picks this machine's, no script runs.
    packages: ['@agentclientprotocol/claude-agent-acp@0.101.0'],
    entry: 'node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js',
    args: [],
    // With non-essential traffic off (below), the model's API is the only host the CLI needs.
    domains: ['api.anthropic.com'],
    keyVariable: 'ANTHROPIC_API_KEY',
    env: {
      // Otherwise MCP tools hide behind a search tool and the gate's tools are not called.
      ENABLE_TOOL_SEARCH: 'false',
      // No telemetry, error reports or update checks: hosts the jail would refuse anyway.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    gated: true,
  },
  'gemini-cli': {
    id: 'gemini-cli',
    label: 'Gemini CLI',
    version: '0.61.0',
    // One bundled script; its optional native helpers (keytar, node-pty) are not needed over ACP.
    packages: ['@google/gemini-cli@0.61.0'],
    entry: 'node_modules/@google/gemini-cli/bundle/gemini.js',
    args: ['--acp'],
    domains: ['generativelanguage.googleapis.com'],
    keyVariable: 'GEMINI_API_KEY',
    env: {},
    gated: true,
  },
  codex: {
    id: 'codex',
    label: 'Codex',
    version: '2.6.0',
    packages: ['@agentclientprotocol/codex-acp@2.6.0'],
    entry: 'node_modules/@agentclientprotocol/codex-acp/dist/index.js',
    args: [],
    domains: ['api.openai.com'],
    keyVariable: 'OPENAI_API_KEY',
    env: {},
    gated: NOT_GATED,
  },
  opencode: {
    id: 'opencode',
    label: 'opencode',
    version: '1.18.33',
    // A native program its postinstall script puts in place; never installed while it is not gated.
    packages: ['opencode-ai@1.18.33'],
    entry: 'node_modules/opencode-ai/bin/opencode.exe',
    args: ['acp'],
    // opencode reads many providers' keys; Anthropic's is the one a Claude Code user has.
    domains: ['api.anthropic.com'],
    keyVariable: 'ANTHROPIC_API_KEY',
    env: {},
    gated: NOT_GATED,
  },
};

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}

/** The catalog's spec for `id`; an unknown id is refused in words by the caller (see AgentCalls). */
export function catalogSpec(id: AgentId): AgentSpec {
  return AGENT_CATALOG[id];
}
