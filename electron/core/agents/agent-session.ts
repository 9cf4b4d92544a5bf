/**
 * The driver of a session opened with an external agent (SPEC §14): the ACP driver, with
 * the agent's launch planned by the jail (its `agent_start` card), the gate's MCP face
 * listening on the session's socket before the agent starts, and the agent's own holds
 * (agent-holds.ts). One per session; `dispose` stops the agent's process and the face.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { SessionAgent } from '../../../shared/agents.js';
import type { SessionPlace } from '../../../shared/places.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { gateUrlInside, modelUrlInside } from '../sandbox/agent-view.js';
import type { DriverFactory, DriverSeam, DriverTurn, SessionDriver } from '../sessions/session-driver.js';
import { acpDriver, GATE_SERVER_NAME } from './acp-driver.js';
import type { AgentCalls } from './agent-calls.js';
import { agentHolds, writeHomeSettings } from './agent-holds.js';
import { launchJailed } from './agent-jail.js';
import type { LocalModelWire } from './agent-model-endpoint.js';
import type { AgentProcess } from './agent-process.js';
import { planAgentLaunch, type AgentLaunchInputs, type ModelEndpoint } from './agent-start-card.js';
import { startGateMcpServer, type GateMcpServer } from './gate-mcp-server.js';
import type { Unreachable } from './model-relay.js';
import type { Refusal } from '../sandbox/network/refusal.js';
import { refusedWords, unreachableWords } from './unreachable-words.js';

export interface AgentSessionDeps {
  agents: Pick<AgentCalls, 'spec' | 'installed' | 'tools'>;
  dataDir: string;
  sandbox: Sandbox;
  /** The app's environment: the agent's key variable is read from it, by name. */
  env: () => NodeJS.ProcessEnv;
  /** A model endpoint on this machine for an agent (named on its start card); none by default. */
  localModel?: (agent: SessionAgent) => ({ endpoint: ModelEndpoint } & LocalModelWire) | undefined;
  /**
   * The key saved in Gatehouse under an agent's key variable (ANTHROPIC_API_KEY → the
   * Anthropic key), offered through the keyed relay when the environment has none.
   */
  storedKey?: (keyVariable: string) => Promise<{ value: string; provider: string } | undefined>;
}

/**
 * Where the gate's face for a session listens: short, as a Unix socket's path must be, and
 * one per session. A session id starts with its creation time, so a prefix of it would be
 * shared by sessions made in the same seconds: a digest of the whole id is not.
 */
export function gateSocketPath(dataDir: string, sessionId: string): string {
  const name = createHash('sha256').update(sessionId).digest('hex').slice(0, 16);
  return path.join(dataDir, 'agents', 'run', `${name}.sock`);
}

/**
 * The driver factory for one session driven by `agent` in `workspaceRoot`, which is the
 * session's `place` when it works in one (a staged agent starts only there: agent-start-card.ts).
 */
export function agentSessionDriver(
  deps: AgentSessionDeps,
  session: { id: string; agent: SessionAgent; workspaceRoot: string; place?: SessionPlace },
): DriverFactory {
  const holds = agentHolds(session.agent.id);
  const socketPath = gateSocketPath(deps.dataDir, session.id);
  let face: GateMcpServer | null = null;
  let seamOf: DriverSeam | null = null;
  /** The fingerprint of the last card planned: the launch must be the launch the person allowed. */
  let planned: string | undefined;

  const inputs = async (): Promise<AgentLaunchInputs> => {
    const spec = deps.agents.spec(session.agent.id);
    const installed = await deps.agents.installed(spec.id);
    if (!installed) throw new Error(`${spec.label} is not installed: install it in Settings → Agents`);
    const tools = await deps.agents.tools();
    if ('missing' in tools) throw new Error(`${spec.label} cannot start: ${tools.missing}`);
    const model = deps.localModel?.(session.agent);
    const storedKey = deps.env()[spec.keyVariable] ? undefined : await deps.storedKey?.(spec.keyVariable);
    return {
      spec,
      install: { prefix: installed.prefix, version: installed.version, node: tools.node },
      workspace: session.workspaceRoot,
      dataDir: deps.dataDir,
      domains: spec.domains,
      env: deps.env(),
      ...(model ? { model } : {}),
      ...(session.place ? { place: session.place } : {}),
      ...(storedKey ? { storedKey } : {}),
    };
  };

  /**
   * Once a turn for each host, in words: the agent's CLI retries a host it cannot reach,
   * and would only show "working".
   */
  const told = new Set<string>();
  let toldTurn: string | null = null;
  const say = (host: string, message: string) => {
    const turn = inner.turn.current();
    if (!turn || !seamOf) return;
    if (toldTurn !== turn.turnId) told.clear();
    toldTurn = turn.turnId;
    if (told.has(host)) return;
    told.add(host);
    void seamOf.record.append({ type: 'error', turnId: turn.turnId, message }).catch(() => undefined);
  };
  const unreachable = (what: Unreachable) => say(what.host, unreachableWords(session.agent.label, what));
  const refused = (refusal: Refusal) => say(refusal.host, refusedWords(session.agent.label, refusal));

  const launch = async (signal: AbortSignal): Promise<AgentProcess> => {
    const launchInputs = await inputs();
    const plan = planAgentLaunch(launchInputs);
    await writeHomeSettings(plan.home, holds, { modelUrl: plan.model ? modelUrlInside() : null });
    face ??= await startGateMcpServer({ socketPath, seam: seamOf!, turn: inner.turn });
    return launchJailed({
      ...launchInputs,
      gateSocket: socketPath,
      sandbox: deps.sandbox,
      signal,
      onModelUnreachable: unreachable,
      onNetworkRefused: refused,
      ...(planned !== undefined ? { fingerprint: planned } : {}),
    });
  };

  const inner = acpDriver({
    agent: session.agent,
    startPlan: async () => {
      const card = planAgentLaunch(await inputs()).card;
      planned = card.fingerprint;
      return card;
    },
    launch,
    settled: async () => face?.idle(),
    // A staged agent needs none of the gate's tools: it writes and runs in its place itself.
    mcpServers: () =>
      holds.clientFiles ? [{ type: 'http', name: GATE_SERVER_NAME, url: gateUrlInside(), headers: [] }] : [],
    clientFiles: holds.clientFiles,
    ...(holds.sessionMeta ? { sessionMeta: holds.sessionMeta } : {}),
    ...(holds.authMethod ? { authMethod: holds.authMethod } : {}),
    ...(holds.missingFile ? { missingFile: holds.missingFile } : {}),
  });

  return (seam: DriverSeam): SessionDriver => {
    seamOf = seam;
    const driver = inner(seam);
    return {
      run: (turn: DriverTurn) => driver.run(turn),
      dispose: async () => {
        await inner.stop();
        await face?.close();
        face = null;
      },
    };
  };
}
