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
 *
 * The staged agents (SPEC §15) are not held to the gate: they write and run by themselves,
 * jailed with their session's place writable. They need none of the gate's tools, and are
 * offered no file callbacks (`fs`: else opencode sends every edit it made itself as a write
 * card). Their own settings make the place theirs without a card:
 * - Codex: `~/.codex/config.toml`, written whole by the app: `sandbox_mode =
 *   "danger-full-access"`, because the jail is its sandbox (its own bwrap nested in ours
 *   would need user namespaces the jail refuses, and would hide the place's git and the
 *   forwards); the adapter starts it in mode `agent-full-access` (agent-catalog.ts) for the
 *   same reason, which asks nothing inside the place. `approval_policy = "on-request"`
 *   stands for anything Codex asks outside a turn's mode (an MCP tool of its own):
 *   its `request_permission` is an agent_ask card, as for every agent.
 * - opencode: `~/.config/opencode/opencode.json`: edits and commands allowed (its place; other
 *   folders are not in its jail's sight), a web fetch asked (an agent_ask card), no update
 *   check, no sharing, and its own opencode.ai models off.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../shared/agents.js';
import { GATE_SERVER_NAME } from './acp-driver.js';
import type { MissingFileAnswer } from './acp-fs.js';
import { GATE_OFFERED_NAMES } from './gate-mcp-tools.js';
import { writeFileAtomic } from '../files/atomic-file.js';

export interface AgentHolds {
  /** `_meta` of `session/new`. */
  sessionMeta?: Record<string, unknown>;
  /** JSON settings merged into files of its private HOME (path relative to the HOME). */
  homeSettings: { file: string; merge: Record<string, unknown> }[];
  /** Files of its private HOME the app owns, written whole before each start (path relative to the HOME). */
  homeFiles?: { file: string; text: (launch: HomeLaunch) => string }[];
  /** Whether it is offered the client's file callbacks (`fs/*`): only a gated agent is. */
  clientFiles: boolean;
  /** The `authenticate` method it is asked to use, when it lists one. */
  authMethod?: string;
  /** How its `fs/read_text_file` of a missing file is answered (acp-fs.ts); default "Resource not found". */
  missingFile?: MissingFileAnswer;
}

/** What a home file may depend on at launch. */
export interface HomeLaunch {
  /** The base URL, inside the jail, of a model endpoint on this machine the start card names; else null. */
  modelUrl: string | null;
}

/**
 * Codex's config in its HOME: its sandbox off inside ours, asking where it asks, and a model
 * endpoint on this machine as a provider of its own (Codex 0.166 reads no base URL from the
 * environment: OPENAI_BASE_URL is left unread by its app-server).
 */
export function codexConfig({ modelUrl }: HomeLaunch): string {
  const lines = [
    "# Written by Gatehouse before each start: Codex runs in Gatehouse's jail, in a place of its own.",
    '# Its own sandbox is off because the jail is its sandbox; what it changes stays in its place.',
    'sandbox_mode = "danger-full-access"',
    'approval_policy = "on-request"',
    'check_for_update_on_startup = false',
  ];
  if (modelUrl) {
    lines.push(
      'model_provider = "gatehouse-local"',
      '',
      '[model_providers.gatehouse-local]',
      'name = "model endpoint on this machine"',
      `base_url = ${JSON.stringify(`${modelUrl}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
    );
  }
  // Tables last (a key after a table header belongs to it). Hosts it reaches for by itself
  // (github.com for its plugins, chatgpt.com for its analytics and plugin catalog) are
  // refused by the jail: turned off here, the transcript is not full of their refusals.
  lines.push('', '[analytics]', 'enabled = false', '', '[features]', 'plugins = false');
  return lines.join('\n') + '\n';
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
              allowedTools: GATE_OFFERED_NAMES.map((t) => `mcp__${GATE_SERVER_NAME}__${t}`),
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
        clientFiles: true,
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
                allowed: GATE_OFFERED_NAMES.map((t) => `mcp_${GATE_SERVER_NAME}_${t}`),
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
        clientFiles: true,
      };
    case 'codex':
      return {
        homeSettings: [],
        homeFiles: [{ file: '.codex/config.toml', text: codexConfig }],
        // Its key from OPENAI_API_KEY (or CODEX_API_KEY); Gatehouse never runs its ChatGPT login.
        authMethod: 'api-key',
        clientFiles: false,
      };
    case 'opencode':
      return {
        homeSettings: [
          {
            file: '.config/opencode/opencode.json',
            merge: {
              // Outside its place the jail shows it nothing, so asking about other folders adds nothing.
              permission: { edit: 'allow', bash: 'allow', external_directory: 'allow', webfetch: 'ask' },
              autoupdate: false,
              share: 'disabled',
              // Its own free models live on opencode.ai, a host its jail never reaches unless the
              // person adds it: off, so it picks a model of a provider whose key it was given.
              disabled_providers: ['opencode'],
            },
          },
        ],
        clientFiles: false,
      };
  }
}

/**
 * Writes the settings into the agent's HOME, keeping what the person (or the agent) put
 * there: objects are merged key by key, and a list gains the entries it lacks. A file that
 * is not a JSON object is set aside as `<file>.unreadable`, never lost.
 */
export async function writeHomeSettings(
  home: string,
  holds: AgentHolds,
  launch: HomeLaunch = { modelUrl: null },
): Promise<void> {
  for (const { file, text } of holds.homeFiles ?? []) {
    await writeFileAtomic(await homeTarget(home, file), text(launch));
  }
  for (const { file, merge } of holds.homeSettings) {
    const target = await homeTarget(home, file);
    const current = await readObject(target);
    await writeFileAtomic(target, JSON.stringify(mergeSettings(current, merge), null, 2) + '\n');
  }
}

/**
 * `<home>/<file>`, its folders made 0700. The agent writes its HOME as it likes, so none of
 * them may be a link (the app would write where the agent pointed it), and the file is
 * replaced by rename, never written through a link left in its place.
 */
async function homeTarget(home: string, file: string): Promise<string> {
  const parts = path
    .dirname(file)
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  // The HOME itself is the app's (agent-jail.ts makes it 0700 too); what is inside is the agent's.
  await fs.mkdir(home, { recursive: true, mode: 0o700 });
  let folder = home;
  for (const part of parts) {
    folder = path.join(folder, part);
    const stat = await fs.lstat(folder).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (stat === null) await fs.mkdir(folder, { mode: 0o700 });
    else if (!stat.isDirectory())
      throw new Error(`${folder} in the agent's HOME is not a folder (a link is not followed)`);
  }
  return path.join(folder, path.basename(file));
}

async function readObject(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    // Never through a link: the agent could point its settings at a file of the person's,
    // which would then be merged into a HOME it reads.
    text = await readNoFollow(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Only a file that is not there starts empty: one that cannot be read must not be overwritten.
    if (code === 'ENOENT') return {};
    if (code !== 'ELOOP') throw err;
    text = '';
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

async function readNoFollow(file: string): Promise<string> {
  const handle = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
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
