/**
 * One MCP server, connected through the SDK's Client: started (a process of its own, or a
 * streamable HTTP connection), its tools listed with their raw definitions, told of
 * `notifications/tools/list_changed`, and stopped. It is a disposable: whoever starts it
 * stops it (the session, on its close or the app's).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MESSAGE_MAX_BYTES, MCP_START_TIMEOUT_MS } from '../../../shared/limits.js';
import type { Sandbox, SandboxProfile } from '../sandbox/sandbox.js';
import type { McpServerConfig } from './mcp-config.js';
import { SerialQueue } from '../files/serial-queue.js';
import { makeServerFolder } from './server-folder.js';
import { ServerProcess } from './server-process.js';

export interface ConnectionDeps {
  /** The environment a stdio server starts with (the commands'); its config's `env` goes on top, kept apart (ServerProcessSpec). */
  env: () => NodeJS.ProcessEnv;
  /** Set for a server that runs confined (a workspace's). */
  confine?: { sandbox: Sandbox; profile: SandboxProfile };
  /** The server's tool list changed (awaited before the call that caused it returns), or the connection closed. */
  onChange: () => void | Promise<void>;
}

export class ServerConnection {
  private client: Client | null = null;
  private process: ServerProcess | null = null;
  private listed: Tool[] = [];
  private closedBy: string | null = null;
  private stopped = false;
  /** list_changed notices, taken in one at a time; a failed one does not stop the next. */
  private readonly refreshes = new SerialQueue();
  /** The last list_changed being taken in: a call returns, and a plan is made, only after it. */
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: ConnectionDeps,
  ) {}

  /** The tools as the server lists them, raw (pinning needs the exact definitions). */
  get tools(): readonly Tool[] {
    return this.listed;
  }

  /** Why the connection is gone ("exit code 3"), or null while it is up. */
  get closed(): string | null {
    return this.closedBy;
  }

  get pid(): number | null {
    return this.process?.pid ?? null;
  }

  stderrTail(): string {
    return this.process?.stderr.text() ?? '';
  }

  /** Connects and lists the tools. Throws, with the server stopped, when either fails. */
  async start(signal?: AbortSignal): Promise<void> {
    await this.makeOwnFolder();
    const transport = this.transport();
    const client = new Client(
      { name: 'gatehouse', version: '1' },
      {
        capabilities: {},
        listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.refreshSoon() } },
      },
    );
    client.onclose = () => this.lost();
    this.client = client;
    try {
      await client.connect(transport, { timeout: MCP_START_TIMEOUT_MS, signal });
      this.listed = await this.listAll(signal);
    } catch (err) {
      await this.stop();
      throw new Error(this.startFailure(err), { cause: err });
    }
  }

  async call(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal; timeoutMs: number }) {
    const client = this.client;
    if (!client || this.closedBy) throw new Error(`the server is not running (${this.closedBy ?? 'not started'})`);
    // A signal of the call's own: the SDK adds a listener to the signal it is given and
    // never removes it, so the turn's signal would collect one per call, and a cancel
    // would send notifications/cancelled for every call that had already finished.
    const own = new AbortController();
    const abort = () => own.abort(options.signal?.reason);
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    let result: CallToolResult;
    try {
      result = (await client.callTool({ name, arguments: args }, undefined, {
        signal: own.signal,
        timeout: options.timeoutMs,
      })) as CallToolResult;
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    // A server that changes its tools during a call says so before the call's result: the
    // model's next step must see the new list, and its next card the change.
    await this.settled();
    return result;
  }

  /** Resolves once every list_changed received so far has been taken in. */
  settled(): Promise<void> {
    return this.refreshing;
  }

  /** Stops the server and, for a process, its whole tree. Safe to call more than once. */
  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => {});
    await this.process?.close();
  }

  private transport(): Transport {
    const t = this.config.transport;
    if (t.type === 'http') {
      return new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: t.headers } });
    }
    this.process = new ServerProcess({
      argv: [t.command, ...t.args],
      cwd: t.cwd,
      env: this.deps.env(),
      declaredEnv: t.env,
      confine: this.deps.confine,
      maxMessageBytes: MCP_MESSAGE_MAX_BYTES,
    });
    return this.process;
  }

  /** A user's server with no `cwd` runs in a folder of its own (server-folder.ts), made here. */
  private async makeOwnFolder(): Promise<void> {
    const t = this.config.transport;
    if (t.type !== 'stdio' || !t.ownFolder) return;
    try {
      await makeServerFolder(t.cwd);
    } catch (err) {
      throw new Error(`could not start: ${(err as Error).message}`, { cause: err });
    }
  }

  private async listAll(signal?: AbortSignal): Promise<Tool[]> {
    const client = this.client;
    if (!client) return [];
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: MCP_START_TIMEOUT_MS, signal });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private refreshSoon(): void {
    const run = this.refreshes.run(() => this.refresh());
    run.catch(() => undefined); // its error reaches whoever awaits settled()
    this.refreshing = run;
  }

  /** list_changed: the tools are read again; the session decides what changed. */
  private async refresh(): Promise<void> {
    try {
      this.listed = await this.listAll();
    } catch {
      return; // a server that cannot list its tools any more keeps the last list; its calls will fail plainly
    }
    await this.deps.onChange();
  }

  private lost(): void {
    if (this.closedBy) return;
    this.closedBy = this.stopped ? 'stopped' : (this.process?.ended ?? 'the connection closed');
    void this.deps.onChange();
  }

  private startFailure(err: unknown): string {
    const message = err instanceof Error ? err.message : String(err);
    const why = this.process?.ended ? `it stopped (${this.process.ended})` : message;
    return `could not start: ${why}`;
  }
}
