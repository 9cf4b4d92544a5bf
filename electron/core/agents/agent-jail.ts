/**
 * Starts an external agent in its jail (SPEC §14): the plan of agent-start-card.ts, held to
 * the sandbox room's agent view (sandbox/agent-view.ts), started through the process room
 * (a process group of its own, stopped whole). The agent is spoken to over its stdio; the
 * gate's MCP socket and, when named, a model endpoint on this machine are forwarded in.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ProcessGroup } from '../process/process-group.js';
import { agentView } from '../sandbox/agent-view.js';
import type { Refusal } from '../sandbox/network/refusal.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { AgentProcess } from './agent-process.js';
import { planAgentLaunch, type AgentLaunch, type AgentLaunchInputs } from './agent-start-card.js';
import { startKeyedModelRelay, startModelRelay, type ModelRelay, type Unreachable } from './model-relay.js';
import { keepStderrTail } from './stderr-tail.js';

export interface JailedLaunch extends AgentLaunchInputs {
  /** Host Unix socket of the gate's MCP face (it must be listening). */
  gateSocket: string;
  sandbox: Sandbox;
  signal?: AbortSignal;
  /** The fingerprint of the card the person allowed: a launch that no longer matches it is refused. */
  fingerprint?: string;
  /** Told when the relay to its model host cannot connect (the agent's CLI only retries). */
  onModelUnreachable?: (what: Unreachable) => void;
  /** Told of each connection the proxy refused it (a host not on its list, this machine's address). */
  onNetworkRefused?: (refusal: Refusal) => void;
}

/** How often the proxy's refusals are looked at while the agent runs (and once more when it ends). */
const REFUSALS_EVERY_MS = 1000;

/** Starts the agent jailed. Throws in words when it cannot (bad input, no sandbox, a changed launch). */
export async function launchJailed(inputs: JailedLaunch): Promise<AgentProcess> {
  const plan = planAgentLaunch(inputs);
  if (inputs.fingerprint !== undefined && inputs.fingerprint !== plan.card.fingerprint) {
    throw new Error(`${inputs.spec.label}'s launch changed since it was allowed; it must be asked again`);
  }
  await makeHome(plan.home);
  const relay = await startRelay(plan, inputs);
  try {
    const group = await startGroup(plan, inputs, relay);
    const refusals = watchRefusals(group, inputs.onNetworkRefused);
    return jailedProcess(group, plan, relay, refusals);
  } catch (err) {
    await relay?.close();
    throw err;
  }
}

/** The keyed relay when the agent uses the key saved in Gatehouse; else a plain one to a local port; else none. */
async function startRelay(plan: AgentLaunch, inputs: JailedLaunch): Promise<ModelRelay | null> {
  const options = inputs.onModelUnreachable ? { onUnreachable: inputs.onModelUnreachable } : {};
  if (plan.keyRelay) return startKeyedModelRelay(plan.keyRelay.upstream, plan.keyRelay.key, options);
  if (plan.model && 'port' in plan.model) return startModelRelay(plan.model.port, options);
  return null;
}

async function startGroup(plan: AgentLaunch, inputs: JailedLaunch, relay: ModelRelay | null): Promise<ProcessGroup> {
  const modelSocket = relay?.socket ?? (plan.model && 'socket' in plan.model ? plan.model.socket : undefined);
  const confine = await agentView(
    inputs.sandbox,
    {
      workspace: plan.workspace,
      home: plan.home,
      install: plan.install,
      node: plan.node,
      gateSocket: inputs.gateSocket,
      ...(modelSocket ? { modelSocket } : {}),
      ...(plan.staged ? { staged: { origin: plan.staged.origin, gitDir: plan.staged.gitDir } } : {}),
    },
    plan.card.domains,
  );
  return ProcessGroup.start({
    argv: plan.argv,
    cwd: plan.workspace,
    env: { ...inputs.env },
    declaredEnv: plan.declaredEnv,
    stdin: 'pipe',
    confine,
    ...(inputs.signal ? { signal: inputs.signal } : {}),
  });
}

/**
 * Tells `onRefused` of each refusal of the agent's proxy as it comes: the agent's CLI
 * retries a refused host quietly, and the person would see only "working". Returns the
 * last look, made before the door closes.
 */
function watchRefusals(group: ProcessGroup, onRefused?: (refusal: Refusal) => void): () => void {
  if (!onRefused) return () => undefined;
  let told = 0;
  const look = () => {
    const all = group.networkRefusals();
    for (; told < all.length; told++) onRefused(all[told]!);
  };
  const timer = setInterval(look, REFUSALS_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    look();
  };
}

function jailedProcess(
  group: ProcessGroup,
  plan: AgentLaunch,
  relay: ModelRelay | null,
  lastLookAtRefusals: () => void,
): AgentProcess {
  const tail = keepStderrTail(group.stderr, plan.secret ? [plan.secret] : []);
  let cleaned: Promise<void> | null = null;
  // Once it has ended (or been stopped): whatever it left behind is stopped, the sandbox's and the relay's parts go.
  const cleanUp = () =>
    (cleaned ??= (async () => {
      await group.settle();
      lastLookAtRefusals();
      await group.release();
      await relay?.close();
    })());
  const exited = group.exited.then(async (exit) => {
    await cleanUp();
    return { code: exit.code, signal: exit.signal };
  });
  return {
    stdin: group.stdin as NodeJS.WritableStream,
    stdout: group.stdout as Readable,
    exited,
    stderrTail: () => tail.text(),
    stop: async () => {
      await group.stop();
      await exited;
    },
  };
}

/** The agent's own HOME, and the folder above it, made 0700: its login lives there. */
async function makeHome(home: string): Promise<void> {
  await fs.mkdir(home, { recursive: true, mode: 0o700 });
  await fs.chmod(path.dirname(home), 0o700);
  await fs.chmod(home, 0o700);
}
