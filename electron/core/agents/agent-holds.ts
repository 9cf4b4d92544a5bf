/**
 * How each gated agent is held to the gate beyond its jail (SPEC §14): what it is told in
 * `session/new`, and the settings written into its private HOME before it starts. The jail
 * already makes a write of its own fail (the workspace is read-only); these settings make
 * the model reach for the gate's tools in the first place, instead of tools that can only fail.
 *
 * - Claude Code: its built-in Write, Edit, MultiEdit, NotebookEdit and Bash are turned off
 *   through `_meta.claudeCode.options.disallowedTools`, the gate's tools pre-allowed, and its
 *   permission mode pinned to `default` with "bypass permissions" off (in its user settings,
 *   and in the options).
 * - Gemini CLI: it writes through the client (`fs/write_text_file`, a write card), so only its
 *   shell tool is excluded (`tools.exclude` in `~/.gemini/settings.json`: a policy DENY rule
 *   in 0.61); the gate's `run` is its one way to run a command. Folder trust is turned off
 *   (else no MCP server starts), the gate's tools are in `tools.allowed` (so the CLI does
 *   not ask before the gate does), and a missing file reads as empty text (see acp-fs.ts,
 *   MissingFileAnswer), or it could never create one. Its own write_file still asks first
 *   (an agent_ask card), then writes through the client (the write card).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../shared/agents.js';
import { GATE_SERVER_NAME } from './acp-driver.js';
import type { MissingFileAnswer } from './acp-fs.js';
import { GATE_TOOL_NAMES } from './gate-mcp-tools.js';

export interface AgentHolds {
  /** `_meta` of `session/new`. */
  sessionMeta?: Record<string, unknown>;
  /** JSON settings merged into files of its private HOME (path relative to the HOME). */
  homeSettings: { file: string; merge: Record<string, unknown> }[];
  /** The `authenticate` method it is asked to use, when it lists one. */
  authMethod?: string;
  /** How its `fs/read_text_file` of a missing file is answered (acp-fs.ts); default "Resource not found". */
  missingFile?: MissingFileAnswer;
}

const CLAUDE_BUILT_IN_WRITERS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'BashOutput', 'KillShell'];

export function agentHolds(id: AgentId): AgentHolds {
  switch (id) {
    case 'claude-code':
      return {
        sessionMeta: {
          claudeCode: {
            options: {
              disallowedTools: CLAUDE_BUILT_IN_WRITERS,
              allowedTools: GATE_TOOL_NAMES.map((t) => `mcp__${GATE_SERVER_NAME}__${t}`),
              permissionMode: 'default',
              allowDangerouslySkipPermissions: false,
            },
          },
        },
        homeSettings: [
          {
            file: '.claude/settings.json',
            merge: { permissions: { defaultMode: 'default', disableBypassPermissionsMode: 'disable' } },
          },
        ],
      };
    case 'gemini-cli':
      return {
        homeSettings: [
          {
            file: '.gemini/settings.json',
            merge: {
              // The gate's own tools go unasked by the CLI: the gate's card is the one that decides.
              tools: {
                exclude: ['run_shell_command'],
                allowed: GATE_TOOL_NAMES.map((t) => `mcp_${GATE_SERVER_NAME}_${t}`),
              },
              // Folder trust is on by default in 0.61, and an untrusted folder starts no MCP
              // server, so the gate's tools were never offered to the model. The person chose
              // this workspace for the agent, and the jail holds it read-only.
              security: { folderTrust: { enabled: false } },
            },
          },
        ],
        authMethod: 'gemini-api-key',
        // Its write_file reads the file first, and cannot read "Resource not found" as absent.
        missingFile: 'empty',
      };
    case 'codex':
    case 'opencode':
      return { homeSettings: [] };
  }
}

/**
 * Writes the settings into the agent's HOME, keeping what the person (or the agent) put
 * there: objects are merged key by key, and a list gains the entries it lacks. A file that
 * is not a JSON object is set aside as `<file>.unreadable`, never lost.
 */
export async function writeHomeSettings(home: string, holds: AgentHolds): Promise<void> {
  for (const { file, merge } of holds.homeSettings) {
    const target = path.join(home, file);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const current = await readObject(target);
    await fs.writeFile(target, JSON.stringify(mergeSettings(current, merge), null, 2) + '\n', { mode: 0o600 });
  }
}

async function readObject(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    // Only a file that is not there starts empty: one that cannot be read must not be overwritten.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed)) return parsed;
  } catch {
    // Set aside below.
  }
  await fs.rename(file, `${file}.unreadable`);
  return {};
}

export function mergeSettings(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const had = out[key];
    if (isObject(had) && isObject(value)) out[key] = mergeSettings(had, value);
    else if (Array.isArray(had) && Array.isArray(value)) out[key] = [...had, ...value.filter((v) => !had.includes(v))];
    else out[key] = value;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
