/**
 * The gate's MCP face (SPEC §14): one MCP server per session, over Streamable HTTP on a
 * Unix socket that the agent's jail bridges in. It offers the native tools that write,
 * run and read (gate-mcp-tools.ts), and every call goes through the session's gate.
 *
 * Stateless: each HTTP request gets its own protocol object and transport (the SDK's
 * stateless pattern), so an agent that restarts and initializes again, or two clients at
 * once, need no session bookkeeping here; the calls' order is kept by GateCalls.
 *
 * The low-level `Server` rather than `McpServer`: the tools' JSON schemas are the ones the
 * native model is shown (converted once, tool-specs.ts), and bad arguments are answered in
 * the native tools' own words, which `McpServer`'s own validation would replace.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { DriverSeam } from '../sessions/session-driver.js';
import { GATE_INSTRUCTIONS, GateCalls, listedGateTools, UnknownGateToolError } from './gate-mcp-tools.js';
import type { LiveTurnDoor } from './live-turn.js';
import { GateCallCancels } from './gate-mcp-cancels.js';
import { listenOnSocket, prepareSocketPath, removeSocket } from './gate-socket.js';

/** The one HTTP path the face answers on; the jail's bridge gives the agent `http://127.0.0.1:<port>/mcp`. */
export const GATE_MCP_PATH = '/mcp';

/**
 * A request body over this is answered 413 before it is parsed. The largest honest call
 * is a write of WRITE_MAX_BYTES (256 KiB), at most six bytes per byte once JSON-escaped.
 */
export const GATE_MCP_BODY_MAX_BYTES = 2 * 1024 * 1024;

export interface GateMcpOptions {
  /** Absolute, at most 107 bytes: `<dataDir>/agents/run/<sessionId>.sock`. */
  socketPath: string;
  seam: DriverSeam;
  turn: LiveTurnDoor;
}

export interface GateMcpServer {
  /** The path to give in the agent's MCP server URL. */
  path: typeof GATE_MCP_PATH;
  /** Resolves once every call taken so far has logged its result: await it before logging `turn_ended`. */
  idle(): Promise<void>;
  /** Stops listening, drops open connections and removes the socket file. Calls already taken run on to their result. */
  close(): Promise<void>;
}

/** Made once: the protocol objects made per request share it (an Ajv instance is not cheap). */
let validator: AjvJsonSchemaValidator | undefined;

/** The protocol object for one HTTP request: its tools/call runs until answered, whatever becomes of the request. */
function protocolServer(calls: GateCalls, cancels: GateCallCancels, res: ServerResponse): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name: 'gatehouse', version: '1' },
    { capabilities: { tools: {} }, instructions: GATE_INSTRUCTIONS, jsonSchemaValidator: validator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedGateTools(calls.offered()) }));
  // The SDK's own cancel handling aborts only requests of the same protocol object (and on
  // every closed connection, which must not withdraw a card): the face's registry replaces it.
  server.setNotificationHandler(CancelledNotificationSchema, ({ params }) => {
    if (params.requestId !== undefined) cancels.cancel(params.requestId);
  });
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, { requestId }) => {
    const withdrawn = cancels.take(requestId);
    const forget = () => cancels.forget(requestId, withdrawn);
    res.once('close', forget);
    try {
      return await calls.call(params.name, params.arguments, withdrawn.signal);
    } catch (err) {
      if (err instanceof UnknownGateToolError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw new McpError(ErrorCode.InternalError, `the gate could not take this call: ${(err as Error).message}`);
    } finally {
      forget();
    }
  });
  return server;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message }, id: null }));
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  calls: GateCalls,
  cancels: GateCallCancels,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://gate');
  if (url.pathname !== GATE_MCP_PATH) return refuse(res, 404, `not found: the gate answers on ${GATE_MCP_PATH}`);
  // Stateless: there is no stream to open or session to end, so only POST carries messages.
  if (req.method !== 'POST') return refuse(res, 405, `${req.method ?? 'this method'} is not supported; use POST`);
  const server = protocolServer(calls, cancels, res);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: GATE_MCP_BODY_MAX_BYTES,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** Starts the gate's MCP face for one session on its socket. Throws, listening on nothing, when the socket cannot be made. */
export async function startGateMcpServer({ socketPath, seam, turn }: GateMcpOptions): Promise<GateMcpServer> {
  const calls = new GateCalls(seam, turn);
  const cancels = new GateCallCancels();
  await prepareSocketPath(socketPath);
  const http: HttpServer = createServer((req, res) => {
    answer(req, res, calls, cancels).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, 500, `the gate's MCP face failed: ${(err as Error).message}`);
      else res.destroy();
    });
  });
  const ino = await listenOnSocket(http, socketPath);
  let closed: Promise<void> | undefined;
  return {
    path: GATE_MCP_PATH,
    idle: () => calls.idle(),
    close: () =>
      (closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        await stopped;
        await removeSocket(socketPath, ino);
      })()),
  };
}
