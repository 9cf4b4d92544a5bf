/**
 * A server as a person is shown it (SPEC §10): the start card of a workspace's server (the
 * call that puts it through the gate, its plan with the sandbox it would run in, its body
 * and words), and the target Settings lists. A workspace file can take any of the person's
 * variables with `${VAR}` and send it anywhere (`"Authorization": "Bearer ${GITHUB_TOKEN}"`),
 * so the card names each variable and the field it feeds, and a field a variable fed is
 * shown as written: a card goes into the log, and a value must never.
 */
import type { CommandSandbox, McpServerCardBody, McpVariableFeed } from '../../../shared/cards.js';
import type { ToolCall } from '../gate/permission-gate.js';
import { profileOfCard } from '../sandbox/card-profile.js';
import { planConfinement, type ConfinementPolicy } from '../sandbox/confinement.js';
import type { SandboxProfile } from '../sandbox/sandbox.js';
import { ToolError, type McpServerPlan } from '../tools/tool-def.js';
import { serverFingerprint } from './fingerprint.js';
import type { McpServerConfig } from './mcp-config.js';

/** The tool a start card is planned as; no model can call it, the session does. */
export const START_TOOL = 'mcp_server';
/** The tool call id a server's start card carries: it is not a call of the model's. */
const START_CALL = 'mcp-server-start:';

/** Said on the card when the config differs from the one the person allowed before in this session. */
export const CONFIG_CHANGED_SINCE_ALLOWED =
  "its command, arguments, folder, URL, or a variable's or header's name or value differ from what you allowed before";

/** The call that puts a workspace server's start through the gate. */
export function startCall(turnId: string, server: string): ToolCall {
  return { turnId, toolCallId: `${START_CALL}${server}`, tool: START_TOOL, args: { server } };
}

export interface StartPlanInput {
  config: McpServerConfig;
  /** The fingerprint the person last allowed this server to start with, in this session. */
  allowedBefore: string | undefined;
  sandbox: ConfinementPolicy;
  workspaceRoot: string | null;
}

/** A workspace server's start as the gate plans it: its card, with the sandbox a stdio server would run in. */
export async function startPlan({
  config,
  allowedBefore,
  sandbox,
  workspaceRoot,
}: StartPlanInput): Promise<McpServerPlan> {
  const fingerprint = serverFingerprint(config);
  const changed = allowedBefore && allowedBefore !== fingerprint ? CONFIG_CHANGED_SINCE_ALLOWED : undefined;
  const runs = await startSandbox(config, sandbox, workspaceRoot);
  const body = startCardBody({ config, fingerprint, sandbox: runs, changed });
  return { kind: 'mcp_server', tool: START_TOOL, body, args: { server: config.name } };
}

/** A stdio server runs confined like a command, with network (servers often need it), or as the command policy says when it cannot be. */
async function startSandbox(
  config: McpServerConfig,
  policy: ConfinementPolicy,
  workspaceRoot: string | null,
): Promise<CommandSandbox | undefined> {
  const t = config.transport;
  if (t.type !== 'stdio') return undefined;
  const request = { network: true, unconfined: false, git: false };
  const confinement = await planConfinement(policy, workspaceRoot ?? t.cwd, request);
  if ('refused' in confinement) throw new ToolError(confinement.refused);
  return confinement.sandbox;
}

/**
 * The profile an allowed card promised the server would run under; undefined when it runs
 * unconfined (as the card said). Null when a confined card no longer holds: one from before
 * the home folder was emptied promised less, and must never run unconfined.
 */
export function cardProfile(sandbox: CommandSandbox | undefined): SandboxProfile | null | undefined {
  return sandbox?.confined ? profileOfCard(sandbox) : undefined;
}

export interface StartCardInput {
  config: McpServerConfig;
  fingerprint: string;
  /** How a stdio server would run. */
  sandbox?: CommandSandbox;
  /** Set when the config differs from what the session allowed before. */
  changed?: string;
}

export function startCardBody({ config, fingerprint, sandbox, changed }: StartCardInput): McpServerCardBody {
  const t = config.transport;
  const common = { kind: 'mcp_server' as const, server: config.name, source: config.source };
  const tail = { variables: variableFeeds(config), fingerprint, ...(changed ? { changed } : {}) };
  if (t.type === 'http') {
    return { ...common, url: shownUrl(config), headerNames: Object.keys(t.headers).sort(), ...tail };
  }
  return {
    ...common,
    argv: shownArgv(config),
    cwd: shownField(config, 'cwd', t.cwd),
    envNames: Object.keys(t.env).sort(),
    ...(sandbox ? { sandbox } : {}),
    ...tail,
  };
}

/** Each of the person's variables and the field it feeds, in the file's order. */
export function variableFeeds(config: McpServerConfig): McpVariableFeed[] {
  return (config.variables ?? []).flatMap((source) =>
    source.variables.map((variable) => ({ field: source.field, variable })),
  );
}

/** A stdio server's argv, each part a variable fed as written. */
export function shownArgv(config: McpServerConfig): string[] {
  const t = config.transport;
  if (t.type !== 'stdio') return [];
  return [shownField(config, 'command', t.command), ...t.args.map((arg, i) => shownField(config, `args[${i}]`, arg))];
}

/** An HTTP server's URL, as written when a variable fed it (a URL can carry a key). */
export function shownUrl(config: McpServerConfig): string {
  return config.transport.type === 'http' ? shownField(config, 'url', config.transport.url) : '';
}

function shownField(config: McpServerConfig, field: string, value: string): string {
  return config.variables?.find((s) => s.field === field)?.written ?? value;
}
