/**
 * Whether a freshly installed adapter speaks ACP (SPEC §14), asked before the install
 * replaces anything: it is started in the same jail as a session's agent, but with an empty
 * folder for a workspace, no network, no key and a gate that answers nothing, sent ACP's
 * `initialize` through the SDK, and stopped. A version that crashes, prints something else
 * or never answers within the bound fails the install's `checking` phase in one line.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { Sandbox } from '../sandbox/sandbox.js';
import { AcpLink } from './acp-link.js';
import type { ErrorKind } from '../error-kind.js';
import { launchJailed } from './agent-jail.js';
import type { AgentSpec } from './agent-spec.js';
import type { SessionPlace } from '../../../shared/places.js';

export interface AcpCheckInputs {
  spec: AgentSpec;
  /** The new install's prefix (still beside `pkg`), its version and the node that runs it. */
  prefix: string;
  version: string;
  node: string;
  /** The app's data folder: the agent's home is `<dataDir>/agents/<id>/home`, as in a session. */
  dataDir: string;
  sandbox: Sandbox;
  /** The environment the jail's allow-list is taken from: the agent's key variable is dropped. */
  env: NodeJS.ProcessEnv;
  /** Longest the adapter may take to answer `initialize`. */
  timeoutMs?: number;
  /** The install was cancelled (the app is quitting): the adapter is stopped. */
  signal?: AbortSignal;
}

/** A cold start of Claude Code's adapter in its jail takes a second or two; twenty is for a slow disk. */
export const ACP_CHECK_TIMEOUT_MS = 20_000;

/** The adapter does not speak ACP: the line the install's `checking` phase fails with. */
export class AcpCheckFailed extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'AcpCheckFailed';
}

/** Resolves with what the adapter answered and how long the check took; throws AcpCheckFailed in words. */
export async function checkSpeaksAcp(inputs: AcpCheckInputs): Promise<{ protocolVersion: number; ms: number }> {
  const started = Date.now();
  const scratch = path.join(inputs.dataDir, 'agents', inputs.spec.id, `check-${randomBytes(4).toString('hex')}`);
  // Short, as a Unix socket's path must be; beside the sessions' gate sockets.
  const socketPath = path.join(inputs.dataDir, 'agents', 'run', `check-${randomBytes(6).toString('hex')}.sock`);
  await fs.mkdir(scratch, { recursive: true, mode: 0o700 });
  const gate = await silentGate(socketPath).catch(async (err: unknown) => {
    await fs.rm(scratch, { recursive: true, force: true });
    throw err;
  });
  try {
    const init = await initialize(inputs, scratch, socketPath);
    if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
      throw new Error(`it speaks protocol version ${init.protocolVersion}, Gatehouse speaks ${acp.PROTOCOL_VERSION}`);
    }
    return { protocolVersion: init.protocolVersion, ms: Date.now() - started };
  } catch (err) {
    const why = (err as Error).message || String(err);
    throw new AcpCheckFailed(`${inputs.spec.label} ${inputs.version} did not answer ACP's initialize: ${why}`);
  } finally {
    await new Promise<void>((r) => gate.close(() => r()));
    await fs.rm(socketPath, { force: true });
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** Starts the adapter jailed, initializes it (AcpLink's bound, exit and stderr words), and stops it. */
async function initialize(
  inputs: AcpCheckInputs,
  workspace: string,
  gateSocket: string,
): Promise<acp.InitializeResponse> {
  const env = { ...inputs.env };
  // No key: the check needs no model, and a key must not reach a version not yet trusted to speak ACP.
  delete env[inputs.spec.keyVariable];
  // A staged agent starts only in a place of its own: an empty copy place, its origin an empty folder.
  const place = inputs.spec.staged ? await scratchPlace(workspace) : undefined;
  const agent = await launchJailed({
    spec: inputs.spec,
    install: { prefix: inputs.prefix, version: inputs.version, node: inputs.node },
    workspace: place?.path ?? workspace,
    ...(place ? { place } : {}),
    dataDir: inputs.dataDir,
    domains: [],
    env,
    gateSocket,
    sandbox: inputs.sandbox,
    ...(inputs.signal ? { signal: inputs.signal } : {}),
  });
  try {
    const link = await AcpLink.open(agent, acp.client({ name: 'gatehouse' }), {
      initializeTimeoutMs: inputs.timeoutMs ?? ACP_CHECK_TIMEOUT_MS,
    });
    await link.stop();
    return link.init;
  } finally {
    // AcpLink stops it on a failure too; this is for a throw before the link was made.
    await agent.stop();
  }
}

/** An empty place for the check: `<scratch>/place` copied from an empty `<scratch>/origin`, beside it. */
async function scratchPlace(scratch: string): Promise<SessionPlace> {
  const place = path.join(scratch, 'place');
  const origin = path.join(scratch, 'origin');
  await Promise.all([fs.mkdir(place, { mode: 0o700 }), fs.mkdir(origin, { mode: 0o700 })]);
  return { kind: 'copy', origin, path: place, state: 'active' };
}

/** A Unix socket the jail's gate forward can point at, which hangs up on whoever connects: the check has no gate. */
async function silentGate(socketPath: string): Promise<net.Server> {
  await fs.mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  await fs.rm(socketPath, { force: true });
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return server;
}
