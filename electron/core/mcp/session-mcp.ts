/**
 * The MCP servers of one session (SPEC §10): the room's one way in. Before each turn's
 * first model request it reads the config, stops servers that left it or changed, and
 * starts the others: a user's own at once (in a folder of its own, never the workspace), a
 * workspace's only through the gate (a card with its argv, folder, sandbox and the person's
 * variables it takes). Their tools join the session's tools as
 * mcp__<server>__<tool>. When a server changes a tool the session had allowed, the grants
 * for it are void (logged), and its next card shows what changed.
 *
 * It coordinates; each concern has a file of its own: reconciling the config
 * (config-reconcile.ts), a server's states (server-state.ts), the start card
 * (start-card.ts), pinning from the log (pin-fold.ts), the tool list (tool-list.ts) and
 * the words (server-words.ts).
 *
 * It is a disposable: the session releases it on its close or the app's, and every server
 * process stops with it, whole tree.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Grant } from '../../../shared/cards.js';
import type { McpOverview } from '../../../shared/contract.js';
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { MCP_CALL_TIMEOUT_MS } from '../../../shared/limits.js';
import type { Planner, ToolCall } from '../gate/permission-gate.js';
import type { ConfinementPolicy } from '../sandbox/confinement.js';
import type { SandboxProfile } from '../sandbox/sandbox.js';
import { ToolError, type ExecContext, type Plan, type ToolDef, type ToolResult } from '../tools/tool-def.js';
import { reconcileConfig } from './config-reconcile.js';
import type { DisabledServers } from './disabled-servers.js';
import { readMcpConfig, type McpConfig } from './mcp-config.js';
import { grantsVoided, PinFold } from './pin-fold.js';
import { ServerConnection } from './server-connection.js';
import { namedServer, serverKey } from './server-key.js';
import {
  cardClosed,
  detach,
  newServer,
  startDue,
  startRefused,
  toAsking,
  toDisabled,
  toEnabled,
  toFailed,
  toLost,
  toReady,
  toStarting,
  toStopped,
  type McpServer,
} from './server-state.js';
import {
  cardOutOfDate,
  changedWhileCardOpen,
  DID_NOT_START,
  goneFromConfig,
  modelNotes,
  noSuchServer,
  serverStatus,
  startedWith,
} from './server-words.js';
import { cardProfile, startCall, startPlan } from './start-card.js';
import { readyTools, serverTools } from './tool-list.js';

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

export class SessionMcp {
  /** By name, in the config's order. */
  private readonly servers = new Map<string, McpServer>();
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
    await this.reconcile(await this.readConfig());
    const user = [...this.servers.values()].filter((s) => s.config.scope === 'user' && this.due(s));
    await Promise.all(user.map((s) => this.start(s)));
    for (const server of this.servers.values()) {
      if (signal.aborted || this.disposed) return;
      if (server.config.scope === 'workspace' && this.due(server)) await this.ask(server, turnId, signal);
    }
  }

  /** What the model is told of the servers, or null when there are none. */
  modelNotes(): string | null {
    return modelNotes([...this.servers.values()]);
  }

  /** The servers and config problems, for Settings. Reads the config when no turn has yet. */
  async overview(): Promise<McpOverview> {
    if (this.servers.size === 0 && this.problems.length === 0) await this.reconcile(await this.readConfig());
    return {
      servers: [...this.servers.values()].map(serverStatus),
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
    toStopped(server);
    if (this.startsUnasked(server)) await this.start(server);
    this.changed();
    return this.overview();
  }

  async setEnabled(name: string, enabled: boolean): Promise<McpOverview> {
    await this.reconcile(await this.readConfig());
    const server = this.find(name);
    await this.deps.disabled.set(server.config, !enabled);
    if (!enabled) {
      await this.stopServer(server);
      toDisabled(server);
    } else if (toEnabled(server) && this.startsUnasked(server)) await this.start(server);
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
      this.servers.set(next.name, newServer(next, await this.deps.disabled.has(next)));
    }
    this.rebuildDefs();
  }

  private due(server: McpServer): boolean {
    return !this.disposed && startDue(server, this.pins.deniedStart(server.config));
  }

  /** Settings may start it without a card: a user's own, or a workspace's whose exact config the session allowed. */
  private startsUnasked(server: McpServer): boolean {
    if (server.config.scope === 'user') return true;
    const key = serverKey(server.config);
    const granted = (g: Grant) =>
      g.kind === 'mcp_server' && serverKey(namedServer(g)) === key && g.fingerprint === server.fingerprint;
    return this.deps.grants().some(granted);
  }

  /** A workspace server's start, through the gate: a card unless the session allowed this exact config. */
  private async ask(server: McpServer, turnId: string, signal: AbortSignal): Promise<void> {
    toAsking(server);
    this.changed();
    let result: ToolResult;
    try {
      result = await this.deps.gate(startCall(turnId, server.config.name), { signal }, this.startPlanner());
    } finally {
      cardClosed(server); // the turn may have ended while its card was open
    }
    startRefused(server, result, signal.aborted);
    this.changed();
  }

  /** Plans and executes a server's start for the gate; planning reads the config afresh, so a change while the card is open asks again. */
  private startPlanner(): Planner {
    return {
      plan: async (_tool, args) => {
        const name = (args as { server?: unknown }).server;
        const config = (await this.readConfig()).servers.find((c) => c.name === name && c.scope === 'workspace');
        if (!config) throw new ToolError(goneFromConfig(String(name), this.deps.workspaceRoot));
        const { sandbox, workspaceRoot } = this.deps;
        return startPlan({ config, allowedBefore: this.pins.allowedStart(config), sandbox, workspaceRoot });
      },
      execute: async (plan) => this.executeStart(plan),
    };
  }

  private async executeStart(plan: Plan): Promise<ToolResult> {
    if (plan.kind !== 'mcp_server') throw new Error('a server start cannot execute this plan');
    const name = plan.body.server;
    const server = this.servers.get(name);
    if (!server || server.fingerprint !== plan.body.fingerprint) {
      return { ok: false, error: changedWhileCardOpen(name) };
    }
    server.sandbox = plan.body.sandbox;
    const profile = cardProfile(plan.body.sandbox);
    if (profile === null) return { ok: false, error: cardOutOfDate(name) };
    await this.start(server, profile);
    return server.state === 'ready'
      ? { ok: true, output: startedWith(server.defs.length) }
      : { ok: false, error: server.error ?? DID_NOT_START };
  }

  private async start(server: McpServer, profile?: SandboxProfile): Promise<void> {
    toStarting(server);
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
      toFailed(server, (err as Error).message, connection.stderrTail());
      this.rebuildDefs();
      this.changed();
      return;
    }
    if (this.disposed || server.connection !== connection) return void (await connection.stop());
    toReady(server);
    await this.takeTools(server, connection.tools);
    this.changed();
  }

  /** A list_changed, or the connection closed by itself. */
  private async onServerChange(server: McpServer, connection: ServerConnection): Promise<void> {
    if (server.connection !== connection) return;
    if (connection.closed) {
      if (server.state === 'ready') this.markLost(server, connection);
      return;
    }
    await this.takeTools(server, connection.tools);
    this.changed();
  }

  private markLost(server: McpServer, connection: ServerConnection): void {
    toLost(server, connection);
    this.rebuildDefs();
    this.changed();
  }

  /** Takes a server's tool list; a tool the session had allowed that changed voids its grants (logged). */
  private async takeTools(server: McpServer, tools: readonly Tool[]): Promise<void> {
    const connection = server.connection;
    if (!connection) return;
    const { defs, listed } = serverTools(server, connection, tools, {
      allowedShape: (tool) => this.pins.allowedShape(tool),
      onLost: () => server.connection === connection && this.markLost(server, connection),
      callTimeoutMs: this.deps.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS,
    });
    const changed = this.pins.relisted(server.config.name, listed);
    server.defs = defs;
    this.rebuildDefs();
    for (const tool of changed) {
      // Counted afresh for each: the log's reducer drops a tool's grants as its change is logged.
      const voided = grantsVoided(tool, this.deps.grants());
      const payload = { type: 'mcp_tool_changed', server: server.config.name, tool, voided } as const;
      if (voided > 0) await this.deps.append(payload).catch(() => {});
    }
  }

  private rebuildDefs(): void {
    this.defs = readyTools(this.servers.values(), this.defs);
  }

  private async stopServer(server: McpServer): Promise<void> {
    const connection = detach(server);
    this.rebuildDefs();
    await connection?.stop();
  }

  private find(name: string): McpServer {
    const server = this.servers.get(name);
    if (!server) throw new ToolError(noSuchServer(name));
    return server;
  }

  private changed(): void {
    if (!this.disposed) this.deps.changed();
  }
}
