/**
 * `npm run serve -- [--port N] [--host H] [--data-dir DIR] [--open FOLDER] [--agent-model-endpoint URL]`,
 * parsed strictly.
 */
import path from 'node:path';
import { AgentModelEndpointError, parseAgentModelEndpoint } from '../core/agents/agent-model-endpoint.js';

export interface ServeArgs {
  /** Unset: the host's usual port, or any free one when that is taken. */
  port?: number;
  /** Set only when the user passed --host. */
  host?: string;
  dataDir?: string;
  open?: string;
  /** A model server on this machine's loopback that external agents are pointed at (their start card names it). */
  agentModelEndpoint?: { port: number };
}

export const SERVE_USAGE =
  'usage: npm run serve -- [--port N] [--host H] [--data-dir DIR] [--open FOLDER] [--agent-model-endpoint http://127.0.0.1:PORT]';

export class ServeArgsError extends Error {
  override readonly name = 'ServeArgsError';
}

const FLAGS = new Set(['--port', '--host', '--data-dir', '--open', '--agent-model-endpoint']);

/** `cwd` is where the user ran npm (INIT_CWD): relative folders mean that, not the package root. */
export function parseServeArgs(argv: readonly string[], cwd: string): ServeArgs {
  const args: ServeArgs = {};
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (!FLAGS.has(flag)) throw new ServeArgsError(`unknown argument ${JSON.stringify(flag)}\n${SERVE_USAGE}`);
    if (value === undefined || value === '' || FLAGS.has(value)) {
      throw new ServeArgsError(`${flag} needs a value\n${SERVE_USAGE}`);
    }
    if (flag === '--port') args.port = parsePort(value);
    else if (flag === '--host') args.host = value;
    else if (flag === '--data-dir') args.dataDir = path.resolve(cwd, value);
    else if (flag === '--agent-model-endpoint') args.agentModelEndpoint = parseEndpoint(value);
    else args.open = path.resolve(cwd, value);
  }
  return args;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new ServeArgsError(`--port must be 0-65535, not ${value}`);
  return port;
}

function parseEndpoint(value: string): { port: number } {
  try {
    return parseAgentModelEndpoint(value);
  } catch (err) {
    if (err instanceof AgentModelEndpointError) throw new ServeArgsError(`--agent-model-endpoint: ${err.message}`);
    throw err;
  }
}
