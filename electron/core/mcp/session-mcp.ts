/**
 * The MCP servers of one session (SPEC §10): the room's one way in. Before each turn's
 * first model request it reads the config, stops servers that left it or changed, and
 * starts the others: a user's own at once (in a folder of its own, never the workspace), a
 * workspace's only through the gate (a card with its argv, folder, sandbox and the person's
 * variables it takes). Their tools join the session's tools as
 * mcp__<server>__<tool>. When a server changes a tool the session had allowed, the grants
 * for it are void (logged), and its next card shows what changed.
 *
 * It is a disposable: the session releases it on its close or the app's, and every server
 * process stops with it, whole tree.
 */
import { mcpToolName } from '../../../shared/mcp-tool-name.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CommandSandbox, Grant } from '../../../shared/cards.js';
import type { McpOverview, McpServerState, McpServerStatus } from '../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { MCP_CALL_TIMEOUT_MS } from '../../../shared/limits.js';
import { DENIED, type Planner, type ToolCall } from '../gate/gate.js';
import { planConfinement, type ConfinementPolicy } from '../sandbox/confinement.js';
import { profileOfCard } from '../sandbox/card-profile.js';
import type { SandboxProfile } from '../sandbox/sandbox.js';
import {
  ToolError,
  type ExecContext,
  type McpServerPlan,
  type Plan,
  type ToolDef,
  type ToolResult,
} from '../tools/types.js';
import { reconcileConfig } from './config-reconcile.js';
import type { DisabledServers } from './disabled-servers.js';
import { serverFingerprint, toolFingerprint } from './fingerprint.js';
import { readMcpConfig, type McpConfig, type McpServerConfig } from './mcp-config.js';
import { mcpToolDef } from './mcp-tool-def.js';
import { grantsVoided, PinFold } from './pin-fold.js';
import { ServerConnection } from './server-connection.js';
import { namedServer, serverKey } from './server-key.js';
import { shownArgv, shownUrl, startCardBody } from './start-card.js';

export interface SessionMcpDeps {
  /** The workspace's real root; null when the folder is gone (nothing starts). */
  workspaceRoot: string | null;
  /** Where the user's own mcp.json is. */
  userConfigDir: string;
  /** The app's environment without secrets: `${VAR}` expands from it, and servers start with it. */
  env: () => NodeJS.ProcessEnv;
  sandbox: ConfinementPolicy;
  disabled: DisabledServers;
  events: readonly SessionEvent[];
  grants: () => readonly Grant[];
  append: (payload: EventPayload) => Promise<SessionEvent>;
  /** Puts a workspace server's start through the gate, planned and executed by `via`. */
  gate: (call: ToolCall, exec: ExecContext, via: Planner) => Promise<ToolResult>;
  /** Settings should ask again: a server changed state. */
  changed: () => void;
  /** How long a tool call may go unanswered (MCP_CALL_TIMEOUT_MS unless a test needs less). */
  callTimeoutMs?: number;
  readConfig?: (input: Parameters<typeof readMcpConfig>[0]) => Promise<McpConfig>;
}

interface Server {
  config: McpServerConfig;
  fingerprint: string;
  state: McpServerState;
  connection: ServerConnection | null;
  error?: string;
  stderrTail?: string;
  /** It was ready and then stopped by itself: the next turn starts it again. */
  lost?: boolean;
  /** How its start card said it would run (a workspace stdio server). */
  sandbox?: CommandSandbox;
  defs: ToolDef[];
}

/** The tool call id a server's start card carries: it is not a call of the model's. */
const START_CALL = 'mcp-server-start:';
const START_TOOL = 'mcp_server';

export class SessionMcp {
  private readonly servers = new Map<string, Server>();
  private problems: McpOverview['problems'] = [];
  private defs: readonly ToolDef[] = [];
  private readonly pins = new PinFold();
  private disposed = false;

  constructor(private readonly deps: SessionMcpDeps) {
    for (const event of deps.events) this.add(event);
  }

  /** Every appended event, in order: answered cards pin what the person allowed. */
  add(event: SessionEvent): void {
    this.pins.add(event);
  }

  /** The servers' tools, the same array until one of them changes. */
  definitions(): readonly ToolDef[] {
    return this.defs;
  }

  /**
   * Before a turn's first model request: the config is read again, and every server it
   * names that should run is started (a workspace's after its card). Never throws for a
   * server: a failure is its state.
   */
  async prepare(turnId: string, signal: AbortSignal): Promise<void> {
    const config = await this.readConfig();
    await this.reconcile(config);
    const user = [...this.servers.values()].filter((s) => s.config.scope === 'user' && this.shouldStart(s));
    await Promise.all(user.map((s) => this.start(s)));
    for (const server of this.servers.values()) {
      if (signal.aborted || this.disposed) return;
      if (server.config.scope === 'workspace' && this.shouldStart(server)) await this.ask(server, turnId, signal);
    }
  }

  /** What the model is told of the servers, or null when there are none. */
  modelNotes(): string | null {
    if (this.servers.size === 0) return null;
    const unavailable = [...this.servers.values()]
      .filter((s) => s.state !== 'ready')
      .map((s) => `"${s.config.name}" (${this.stateWords(s)})`);
    const lines = [
      "- Tools named mcp__<server>__<tool> come from MCP servers the user configured. Every call waits for the user to allow it, with its exact arguments; a server's own claims (such as read-only) do not change that.",
    ];
    if (unavailable.length)
      lines.push(
        `- MCP servers not available in this turn: ${unavailable.join(', ')}. Do not try to reach them another way.`,
      );
    return lines.join('\n');
  }

  /** The servers and config problems, for Settings. Reads the config when no turn has yet. */
  async overview(): Promise<McpOverview> {
    if (this.servers.size === 0 && this.problems.length === 0) await this.reconcile(await this.readConfig());
    return {
      servers: [...this.servers.values()].map((s) => this.status(s)),
      problems: this.problems,
      userConfig: `${this.deps.userConfigDir.replace(/\/$/, '')}/mcp.json`,
    };
  }

  /** Stops a server and starts it again: a user's at once, a workspace's at once only when the session allowed its config. */
  async restart(name: string): Promise<McpOverview> {
    await this.reconcile(await this.readConfig());
    const server = this.find(name);
    await this.stopServer(server);
    this.pins.forgetDenial(server.config);
    server.state = 'stopped';
    delete server.error;
    if (server.config.scope === 'user' || this.startGranted(server)) await this.start(server);
    this.changed();
    return this.overview();
  }

  async setEnabled(name: string, enabled: boolean): Promise<McpOverview> {
    await this.reconcile(await this.readConfig());
    const server = this.find(name);
    await this.deps.disabled.set(server.config, !enabled);
    if (!enabled) {
      await this.stopServer(server);
      server.state = 'disabled';
    } else if (server.state === 'disabled') {
      server.state = 'stopped';
      if (server.config.scope === 'user' || this.startGranted(server)) await this.start(server);
    }
    this.changed();
    return this.overview();
  }

  /** Stops every server, whole process trees; the session is closing. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.servers.values()].map((s) => this.stopServer(s)));
  }

  private async readConfig(): Promise<McpConfig> {
    const read = this.deps.readConfig ?? readMcpConfig;
    return read({
      workspaceRoot: this.deps.workspaceRoot,
      userConfigDir: this.deps.userConfigDir,
      env: this.deps.env(),
    });
  }

  /** Takes a fresh config: servers gone or changed are stopped; new ones wait to start. */
  private async reconcile(config: McpConfig): Promise<void> {
    this.problems = config.problems;
    const { stop, add } = reconcileConfig(this.servers, config);
    for (const server of stop) {
      await this.stopServer(server);
      this.servers.delete(server.config.name);
    }
    for (const next of add) {
      if (this.servers.has(next.name)) continue; // another reconcile added it while this one awaited
      const disabled = await this.deps.disabled.has(next);
      this.servers.set(next.name, {
        config: next,
        fingerprint: serverFingerprint(next),
        state: disabled ? 'disabled' : 'stopped',
        connection: null,
        defs: [],
      });
    }
    this.rebuildDefs();
  }

  private shouldStart(server: Server): boolean {
    if (this.disposed) return false;
    if (server.state === 'stopped') return !this.denied(server);
    return server.state === 'failed' && server.lost === true;
  }

  private denied(server: Server): boolean {
    if (this.pins.deniedStart(server.config) !== server.fingerprint) return false;
    server.state = 'not_allowed';
    server.error = 'its start card was denied';
    return true;
  }

  private startGranted(server: Server): boolean {
    return this.deps
      .grants()
      .some(
        (g) =>
          g.kind === 'mcp_server' &&
          serverKey(namedServer(g)) === serverKey(server.config) &&
          g.fingerprint === server.fingerprint,
      );
  }

  /** A workspace server's start, through the gate: a card unless the session allowed this exact config. */
  private async ask(server: Server, turnId: string, signal: AbortSignal): Promise<void> {
    server.state = 'asking';
    this.changed();
    const call: ToolCall = {
      turnId,
      toolCallId: `${START_CALL}${server.config.name}`,
      tool: START_TOOL,
      args: { server: server.config.name },
    };
    let result: ToolResult;
    try {
      result = await this.deps.gate(call, { signal }, this.startPlanner());
    } finally {
      if (server.state === 'asking') server.state = 'stopped'; // the turn ended while its card was open
    }
    if (server.state === 'stopped' && !result.ok) {
      // Denied, or the config could not be planned: it does not start.
      const denied = result.error === DENIED;
      server.state = signal.aborted ? 'stopped' : denied ? 'not_allowed' : 'failed';
      if (!signal.aborted) server.error = denied ? 'its start card was denied' : result.error;
    }
    this.changed();
  }

  /** Plans and executes a server's start for the gate; planning reads the config afresh, so a change while the card is open asks again. */
  private startPlanner(): Planner {
    return {
      plan: async (_tool, args) => {
        const name = (args as { server?: unknown }).server;
        const config = (await this.readConfig()).servers.find((c) => c.name === name && c.scope === 'workspace');
        if (!config)
          throw new ToolError(`the MCP server "${String(name)}" is no longer in ${this.deps.workspaceRoot}/.mcp.json`);
        return this.startPlan(config);
      },
      execute: async (plan) => this.executeStart(plan),
    };
  }

  private async startPlan(config: McpServerConfig): Promise<McpServerPlan> {
    const fingerprint = serverFingerprint(config);
    const before = this.pins.allowedStart(config);
    const changed =
      before && before !== fingerprint
        ? "its command, arguments, folder, URL, or a variable's or header's name or value differ from what you allowed before"
        : undefined;
    const t = config.transport;
    let sandbox: CommandSandbox | undefined;
    if (t.type === 'stdio') {
      const confinement = await planConfinement(this.deps.sandbox, this.deps.workspaceRoot ?? t.cwd, {
        network: true,
        unconfined: false,
        git: false,
      });
      if ('refused' in confinement) throw new ToolError(confinement.refused);
      sandbox = confinement.sandbox;
    }
    const body = startCardBody({ config, fingerprint, sandbox, changed });
    return { kind: 'mcp_server', tool: START_TOOL, body, args: { server: config.name } };
  }

  private async executeStart(plan: Plan): Promise<ToolResult> {
    if (plan.kind !== 'mcp_server') throw new Error('a server start cannot execute this plan');
    const server = this.servers.get(plan.body.server);
    if (!server || server.fingerprint !== plan.body.fingerprint) {
      return { ok: false, error: `the MCP server "${plan.body.server}" changed while its card was open` };
    }
    const sandbox = plan.body.sandbox;
    server.sandbox = sandbox;
    const profile: SandboxProfile | null | undefined = sandbox?.confined ? profileOfCard(sandbox) : undefined;
    // A confined card from before the home folder was emptied promised less: never run it unconfined.
    if (profile === null)
      return { ok: false, error: `the card for "${plan.body.server}" is out of date; it will be asked again` };
    await this.start(server, profile ?? undefined);
    return server.state === 'ready'
      ? { ok: true, output: `started, ${server.defs.length} tools` }
      : { ok: false, error: server.error ?? 'it did not start' };
  }

  private async start(server: Server, profile?: SandboxProfile): Promise<void> {
    server.state = 'starting';
    server.lost = false;
    delete server.error;
    this.changed();
    const policy = this.deps.sandbox;
    const connection: ServerConnection = new ServerConnection(server.config, {
      env: this.deps.env,
      confine: profile && policy ? { sandbox: policy.sandbox, profile } : undefined,
      onChange: (): Promise<void> => this.onServerChange(server, connection),
    });
    server.connection = connection;
    try {
      await connection.start();
    } catch (err) {
      server.state = 'failed';
      server.error = (err as Error).message;
      server.stderrTail = connection.stderrTail();
      server.connection = null;
      this.rebuildDefs();
      this.changed();
      return;
    }
    if (this.disposed || server.connection !== connection) return void (await connection.stop());
    server.state = 'ready';
    await this.takeTools(server, connection.tools);
    this.changed();
  }

  /** A list_changed, or the connection closed by itself. */
  private async onServerChange(server: Server, connection: ServerConnection): Promise<void> {
    if (server.connection !== connection) return;
    if (connection.closed) {
      if (server.state === 'ready') this.markLost(server, connection);
      return;
    }
    await this.takeTools(server, connection.tools);
    this.changed();
  }

  private markLost(server: Server, connection: ServerConnection): void {
    server.state = 'failed';
    server.lost = true;
    server.error = `it stopped (${connection.closed ?? 'the connection closed'})`;
    server.stderrTail = connection.stderrTail();
    server.connection = null;
    this.rebuildDefs();
    this.changed();
  }

  /** Takes a server's tool list; a tool the session had allowed that changed voids its grants (logged). */
  private async takeTools(server: Server, tools: readonly Tool[]): Promise<void> {
    const name = server.config.name;
    const now = new Map<string, string>();
    const defs: ToolDef[] = [];
    const connection = server.connection;
    if (!connection) return;
    for (const tool of tools) {
      const modelName = mcpToolName(name, tool.name);
      if (defs.some((d) => d.name === modelName)) continue; // two tools would share one name ("a.b" and "a_b")
      now.set(
        modelName,
        toolFingerprint(tool.name, { description: tool.description ?? '', inputSchema: tool.inputSchema }),
      );
      defs.push(
        mcpToolDef(modelName, tool, {
          server: name,
          serverFingerprint: server.fingerprint,
          connection,
          allowedShape: (t) => this.pins.allowedShape(t),
          onLost: () => server.connection === connection && this.markLost(server, connection),
          callTimeoutMs: this.deps.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS,
        }),
      );
    }
    const changed = this.pins.relisted(name, now);
    server.defs = defs;
    this.rebuildDefs();
    for (const tool of changed) {
      // Counted afresh for each: the log's reducer drops a tool's grants as its change is logged.
      const voided = grantsVoided(tool, this.deps.grants());
      if (voided > 0) await this.deps.append({ type: 'mcp_tool_changed', server: name, tool, voided }).catch(() => {});
    }
  }

  private rebuildDefs(): void {
    const next = [...this.servers.values()].filter((s) => s.state === 'ready').flatMap((s) => s.defs);
    const same = next.length === this.defs.length && next.every((d, i) => d === this.defs[i]);
    if (!same) this.defs = Object.freeze(next);
  }

  private async stopServer(server: Server): Promise<void> {
    const connection = server.connection;
    server.connection = null;
    if (server.state === 'ready' || server.state === 'starting') server.state = 'stopped';
    this.rebuildDefs();
    await connection?.stop();
  }

  private find(name: string): Server {
    const server = this.servers.get(name);
    if (!server) throw new ToolError(`no MCP server named "${name}" in this session's config`);
    return server;
  }

  private status(s: Server): McpServerStatus {
    const t = s.config.transport;
    return {
      name: s.config.name,
      scope: s.config.scope,
      source: s.config.source,
      transport: t.type,
      target: t.type === 'stdio' ? shownArgv(s.config).join(' ') : shownUrl(s.config),
      state: s.state,
      tools: s.defs.map((d) => d.name),
      ...(s.error ? { error: s.error } : {}),
      ...(s.stderrTail ? { stderrTail: s.stderrTail } : {}),
      ...(t.type === 'stdio' ? { confinement: this.confinementWords(s), confined: this.runsConfined(s) } : {}),
    };
  }

  private confinementWords(s: Server): string {
    if (s.config.scope === 'user') return 'Unconfined: your own server, started as you configured it';
    return s.sandbox && !s.sandbox.confined
      ? `Unconfined: ${s.sandbox.reason}`
      : 'Confined like a command, with network';
  }

  private runsConfined(s: Server): boolean {
    return s.config.scope === 'workspace' && s.sandbox?.confined !== false;
  }

  private stateWords(s: Server): string {
    switch (s.state) {
      case 'not_allowed':
        return 'the user did not allow it to start';
      case 'disabled':
        return 'disabled by the user';
      case 'failed':
        return s.error ?? 'it failed';
      default:
        return 'not started';
    }
  }

  private changed(): void {
    if (!this.disposed) this.deps.changed();
  }
}
