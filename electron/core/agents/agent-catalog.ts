/**
 * The agents Gatehouse knows (SPEC §14), each pinned to one version checked against the
 * npm registry (`scripts/install-agents-cache.ts` checks every pin and entry there again).
 * Claude Code and Gemini CLI can be held to the gate: jailed, with the gate's MCP server as
 * their only way to change anything. Codex and opencode write and run by themselves
 * whatever the client says, so they are staged: they run only in a session place of their
 * own (SPEC §15), jailed with that place writable and the person's folder out of sight.
 */
import { AGENT_IDS, type AgentId } from '../../../shared/agents.js';
import type { AgentSpec } from './agent-spec.js';

/** Why a staged agent is not gated, in the words Settings shows beside "works in a place of its own". */
const STAGED = {
  gated: { reason: 'it writes and runs by itself, so it works in a place of its own' },
  staged: true,
} as const;

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
    // The adapter asks for @openai/codex ^0.166: pinned here too, so npm cannot pick a newer
    // CLI. Its native binary comes in an optional package per platform: no script runs.
    packages: ['@agentclientprotocol/codex-acp@2.6.0', '@openai/codex@0.166.0'],
    entry: 'node_modules/@agentclientprotocol/codex-acp/dist/index.js',
    args: [],
    domains: ['api.openai.com'],
    keyVariable: 'OPENAI_API_KEY',
    env: {
      // Codex's own sandbox off: the jail is its sandbox, its place is what it may change, and a
      // sandbox nested in ours would see neither the forwards nor the place's git (see agent-holds.ts).
      INITIAL_AGENT_MODE: 'agent-full-access',
    },
    ...STAGED,
  },
  opencode: {
    id: 'opencode',
    label: 'opencode',
    version: '1.18.33',
    // Its bin is a stub its install script replaces with the native program; npm runs no
    // script here, so the program its per-platform package brings is run as it is.
    packages: ['opencode-ai@1.18.33'],
    entry: 'node_modules/opencode-ai/bin/opencode.exe',
    native: {
      'linux-x64': 'node_modules/opencode-linux-x64/bin/opencode',
      'linux-arm64': 'node_modules/opencode-linux-arm64/bin/opencode',
      'darwin-x64': 'node_modules/opencode-darwin-x64/bin/opencode',
      'darwin-arm64': 'node_modules/opencode-darwin-arm64/bin/opencode',
    },
    args: ['acp'],
    // opencode reads many providers' keys; Anthropic's is the one a Claude Code user has.
    domains: ['api.anthropic.com'],
    keyVariable: 'ANTHROPIC_API_KEY',
    env: {
      // No models.dev fetch, no update check, no plugin install: hosts the jail refuses anyway.
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    },
    ...STAGED,
  },
};

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}

/** The catalog's spec for `id`; an unknown id is refused in words by the caller (see AgentCalls). */
export function catalogSpec(id: AgentId): AgentSpec {
  return AGENT_CATALOG[id];
}
