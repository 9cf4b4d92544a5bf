/**
 * Where the jail's tests and the agents-start bench find the real, pinned Claude Code
 * adapter: installed outside the repository (GATEHOUSE_AGENT_CACHE, default
 * /var/cache/gatehouse-agents), as CI does. Missing is a failure that says how to install
 * it, never a skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLAUDE_CODE_ENV, type AgentSpec } from '../../../../../electron/core/agents/agent-spec.js';

export const AGENT_CACHE = process.env.GATEHOUSE_AGENT_CACHE || '/var/cache/gatehouse-agents';
export const CLAUDE_CODE_PREFIX = path.join(AGENT_CACHE, 'claude-code', 'pkg');
const ADAPTER = 'node_modules/@agentclientprotocol/claude-agent-acp';
/** The Claude Code CLI the adapter runs (a native binary), relative to the prefix. */
export const CLAUDE_CLI = 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude';

export const CLAUDE_CODE_SPEC: AgentSpec = {
  id: 'claude-code',
  label: 'Claude Code',
  version: '0.101.0',
  packages: ['@agentclientprotocol/claude-agent-acp@0.101.0'],
  entry: `${ADAPTER}/dist/index.js`,
  args: [],
  domains: ['api.anthropic.com'],
  keyVariable: 'ANTHROPIC_API_KEY',
  env: { ...CLAUDE_CODE_ENV },
  gated: true,
};

/** The installed adapter's version; throws with how to install it when it is not there. */
export function claudeCodeInstalled(): { prefix: string; version: string } {
  const manifest = path.join(CLAUDE_CODE_PREFIX, ADAPTER, 'package.json');
  if (!existsSync(manifest) || !existsSync(path.join(CLAUDE_CODE_PREFIX, CLAUDE_CLI))) {
    throw new Error(
      `the pinned Claude Code adapter is not installed at ${CLAUDE_CODE_PREFIX} (set GATEHOUSE_AGENT_CACHE, or install it: npm install --prefix ${CLAUDE_CODE_PREFIX} --no-save ${CLAUDE_CODE_SPEC.packages[0]})`,
    );
  }
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { prefix: CLAUDE_CODE_PREFIX, version };
}
