/**
 * What starting an external agent means, planned once from plain inputs (SPEC §14): the
 * argv, the places it sees and writes, its domains and environment, and the `agent_start`
 * card that shows them. The jail (agent-jail.ts) launches exactly this plan, so the card
 * the person allowed is the launch; its fingerprint is a hash of everything that makes the
 * launch (never the key's value), so a changed launch asks again.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AgentStartCardBody } from '../../../shared/cards.js';
import { canonical } from '../mcp/fingerprint.js';
import { domainListProblem, normalizeDomainList } from '../sandbox/network/domain-policy.js';
import { modelUrlInside, nodePrefix } from '../sandbox/agent-view.js';
import { baseUrlVariableOf } from './agent-model-endpoint.js';
import { checkAgentSpec, type AgentSpec } from './agent-spec.js';
import { RELAY_PLACEHOLDER_KEY } from './model-relay.js';

/** An installed agent: where its packages are, which version, the node that runs it. */
export interface AgentInstall {
  /** The install prefix (`<dataDir>/agents/<id>/pkg` in the app; the CI cache in tests). */
  prefix: string;
  version: string;
  /** The node binary (absolute) that runs the entry. */
  node: string;
}

/** A model endpoint on this machine: a host Unix socket, or a port on the host's loopback. */
export type ModelEndpoint = { socket: string } | { port: number };

export interface AgentLaunchInputs {
  spec: AgentSpec;
  install: AgentInstall;
  /** The workspace: shown read-only, the agent's working folder. */
  workspace: string;
  /** The app's data folder: hidden, but for the agent's own home and install. */
  dataDir: string;
  /** The hosts it may reach through the proxy (the person's list in Settings; the catalog's by default). */
  domains: readonly string[];
  /** The app's environment: the allow-list and the agent's key variable are taken from it, nothing else. */
  env: Readonly<Record<string, string | undefined>>;
  /** A model endpoint on this machine, reached past the proxy, and the variable that points the agent at it. */
  model?: { endpoint: ModelEndpoint; baseUrlVariable: string };
  /**
   * The key saved in Gatehouse for the agent's model provider. Used only when the agent's
   * key variable is not in the environment: the relay adds it outside the jail, and the
   * agent is given a placeholder.
   */
  storedKey?: { value: string; provider: string };
}

/** The launch, planned: what the jail starts and the card shows. */
export interface AgentLaunch {
  card: AgentStartCardBody;
  argv: string[];
  workspace: string;
  /** `<dataDir>/agents/<id>/home`, real (made at launch). */
  home: string;
  install: string;
  node: string;
  /** Set inside on top of the command allow-list (the key's value among them: never logged). */
  declaredEnv: Record<string, string>;
  /** The key's value, when set: kept out of what the agent's stderr shows. */
  secret: string | null;
  model: ModelEndpoint | null;
  /** The keyed relay to start (agent-jail.ts): its one upstream and the key it adds; null when the agent holds its own key. */
  keyRelay: { upstream: string; key: string } | null;
}

/** The `agent_start` card for this launch. Throws in words on bad input, before anything is made. */
export function agentStartPlan(inputs: AgentLaunchInputs): AgentStartCardBody {
  return planAgentLaunch(inputs).card;
}

/** The whole plan (the jail's input). */
export function planAgentLaunch(inputs: AgentLaunchInputs): AgentLaunch {
  const spec = checkAgentSpec(inputs.spec);
  if (spec.gated !== true) throw new Error(`${spec.label} cannot be held to the gate: ${spec.gated.reason}`);
  const workspace = realFolder(inputs.workspace, 'the workspace');
  const dataDir = realFolder(inputs.dataDir, 'the data folder');
  const install = realFolder(inputs.install.prefix, `${spec.label}'s install`);
  const node = realFile(inputs.install.node, 'node');
  const entry = path.join(install, spec.entry);
  realFile(entry, `${spec.label}'s entry`);
  const domains = checkedDomains(inputs.domains);
  const home = path.join(dataDir, 'agents', spec.id, 'home');
  const model = inputs.model ? checkedEndpoint(inputs.model.endpoint) : null;
  const keyRelay = keyRelayOf(spec, inputs, model, domains);
  const { declaredEnv, secret } = agentEnv(spec, inputs, keyRelay);
  const argv = [node, entry, ...spec.args];
  const shape = {
    agent: spec.id,
    label: spec.label,
    version: inputs.install.version,
    argv,
    readOnly: [...new Set([workspace, install, nodePrefix(node)])],
    writable: [home],
    domains,
    envNames: Object.keys(declaredEnv).sort(),
    ...(model ? { modelEndpoint: `model endpoint on this machine: ${endpointWords(model)}` } : {}),
    ...(keyRelay
      ? {
          keySource: `Uses the ${inputs.storedKey!.provider} key saved in Gatehouse: Gatehouse adds it to each request to ${hostOf(keyRelay.upstream)} outside the jail, and the agent is given a stand-in.`,
        }
      : {}),
  };
  // Every value but the key's: a changed extra, model URL or endpoint asks again; a new key does not.
  const values = Object.fromEntries(Object.entries(declaredEnv).filter(([name]) => name !== spec.keyVariable));
  const fingerprint = createHash('sha256')
    .update(canonical({ ...shape, values }))
    .digest('hex');
  return {
    card: { kind: 'agent_start', ...shape, fingerprint },
    argv,
    workspace,
    home,
    install,
    node,
    declaredEnv,
    secret,
    model,
    keyRelay,
  };
}

/**
 * The keyed relay, when the agent should use the key saved in Gatehouse: none is in the
 * environment under its key variable, one is saved, and the agent can be pointed at a
 * base URL. Its upstream is the local endpoint when one is named, else the agent's model
 * host (the first of its catalog domains, over TLS) while its list of hosts holds it.
 */
function keyRelayOf(
  spec: AgentSpec,
  inputs: AgentLaunchInputs,
  model: ModelEndpoint | null,
  domains: readonly string[],
): { upstream: string; key: string } | null {
  const stored = inputs.storedKey?.value.trim();
  if (!stored || inputs.env[spec.keyVariable]) return null;
  if (model && !('port' in model)) return null;
  if (!inputs.model && !baseUrlVariableOf(spec.id)) return null;
  // The relay dials from outside the jail: only a model host the person's list still holds.
  const host = spec.domains[0];
  if (!model && (!host || !domains.includes(host))) return null;
  return { upstream: model ? `http://127.0.0.1:${model.port}` : `https://${host}`, key: stored };
}

function hostOf(origin: string): string {
  return new URL(origin).host;
}

/**
 * What is set inside beyond the command allow-list: the catalog's fixed extras, the key
 * variable by name from the app's environment (when set), and the model base URL for a
 * local endpoint, pointing at its forward.
 */
function agentEnv(
  spec: AgentSpec,
  inputs: AgentLaunchInputs,
  keyRelay: { key: string } | null,
): { declaredEnv: Record<string, string>; secret: string | null } {
  const declaredEnv: Record<string, string> = { ...spec.env };
  const key = inputs.env[spec.keyVariable];
  if (key) declaredEnv[spec.keyVariable] = key;
  // The saved key stays with the relay: the agent holds a stand-in it sends, which the relay replaces.
  if (keyRelay) declaredEnv[spec.keyVariable] = RELAY_PLACEHOLDER_KEY;
  const baseUrlVariable = inputs.model?.baseUrlVariable ?? (keyRelay ? baseUrlVariableOf(spec.id) : undefined);
  if (baseUrlVariable !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(baseUrlVariable) || baseUrlVariable === spec.keyVariable) {
      throw new Error(`bad model base URL variable: ${JSON.stringify(baseUrlVariable)}`);
    }
    declaredEnv[baseUrlVariable] = modelUrlInside();
  }
  return { declaredEnv, secret: key || keyRelay?.key || null };
}

function checkedDomains(domains: readonly string[]): string[] {
  if (domains.length === 0) return [];
  const problem = domainListProblem(domains);
  if (problem) throw new Error(`bad domain list: ${problem}`);
  return normalizeDomainList(domains);
}

function checkedEndpoint(endpoint: ModelEndpoint): ModelEndpoint {
  if ('port' in endpoint) {
    if (!Number.isInteger(endpoint.port) || endpoint.port < 1 || endpoint.port > 65535) {
      throw new Error(`bad model endpoint port: ${endpoint.port}`);
    }
    return { port: endpoint.port };
  }
  if (!path.isAbsolute(endpoint.socket))
    throw new Error(`the model endpoint socket is not an absolute path: ${endpoint.socket}`);
  return { socket: endpoint.socket };
}

function endpointWords(endpoint: ModelEndpoint): string {
  return 'port' in endpoint ? `127.0.0.1:${endpoint.port}` : endpoint.socket;
}

function realFolder(p: string, what: string): string {
  const real = realOrNull(p);
  if (!real || !statSync(real).isDirectory()) throw new Error(`${what} is not a folder: ${p}`);
  return real;
}

function realFile(p: string, what: string): string {
  const real = realOrNull(p);
  if (!real || !statSync(real).isFile()) throw new Error(`${what} is not a file: ${p}`);
  return real;
}

function realOrNull(p: string): string | null {
  if (!path.isAbsolute(p)) return null;
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}
