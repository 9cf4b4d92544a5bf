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
import type { SessionPlace } from '../../../shared/places.js';
import { canonical } from '../mcp/fingerprint.js';
import { domainListProblem, normalizeDomainList } from '../sandbox/network/domain-policy.js';
import { modelUrlInside, nodePrefix } from '../sandbox/agent-view.js';
import { baseUrlVariableOf, type LocalModelWire } from './agent-model-endpoint.js';
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
  /**
   * A model endpoint on this machine, reached past the proxy, the variable that points the
   * agent at it, and the path its client expects there (agent-model-endpoint.ts).
   */
  model?: { endpoint: ModelEndpoint } & LocalModelWire;
  /** The session's place (SPEC §15) when it works in one: its workspace. A staged agent runs only there. */
  place?: SessionPlace;
  /**
   * The key saved in Gatehouse for the agent's model provider. Used only when the agent's
   * key variable is not in the environment: the relay adds it outside the jail, and the
   * agent is given a placeholder.
   */
  storedKey?: { value: string; provider: string };
}

/** What a staged agent's start card says of its place, in words. */
export const STAGED_WORDS =
  'its writes and commands run inside its own place without a card; only what you apply reaches your folder';

/** How a staged agent's place is held: the place writable, the person's folder hidden but for a worktree's .git. */
export interface StagedPlace {
  /** The place (the workspace), real: writable. */
  path: string;
  /** The person's folder, real: hidden. */
  origin: string;
  /** A worktree's `<origin>/.git`, real: shown read-only, so git works in the place. */
  gitDir: string | null;
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
  /** A staged agent's place; null for a gated agent (its workspace is read-only). */
  staged: StagedPlace | null;
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
  const workspace = realFolder(inputs.workspace, 'the workspace');
  const staged = stagedPlace(spec, workspace, inputs.place);
  const dataDir = realFolder(inputs.dataDir, 'the data folder');
  const install = realFolder(inputs.install.prefix, `${spec.label}'s install`);
  const node = realFile(inputs.install.node, 'node');
  const entry = path.join(install, spec.entry);
  realFile(entry, `${spec.label}'s entry`);
  const program = nativeProgram(spec, install);
  const domains = checkedDomains(inputs.domains);
  const home = path.join(dataDir, 'agents', spec.id, 'home');
  const model = inputs.model ? checkedEndpoint(inputs.model.endpoint) : null;
  const keyRelay = keyRelayOf(spec, inputs, model, domains);
  const { declaredEnv, secret } = agentEnv(spec, inputs, keyRelay);
  const argv = program ? [program, ...spec.args] : [node, entry, ...spec.args];
  const shape = {
    agent: spec.id,
    label: spec.label,
    version: inputs.install.version,
    argv,
    readOnly: [
      ...new Set([
        ...(staged ? [] : [workspace]),
        ...(staged?.gitDir ? [staged.gitDir] : []),
        install,
        nodePrefix(node),
      ]),
    ],
    writable: staged ? [workspace, home] : [home],
    ...(staged ? { place: { path: workspace, origin: staged.origin, words: STAGED_WORDS } } : {}),
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
    staged,
    keyRelay,
  };
}

/**
 * A staged agent's place, checked: it runs only in the active place that is this very
 * workspace, never in the person's folder. A gated agent needs none (null).
 */
function stagedPlace(spec: AgentSpec, workspace: string, place: SessionPlace | undefined): StagedPlace | null {
  if (spec.gated === true) return null;
  if (!spec.staged) throw new Error(`${spec.label} cannot be held to the gate: ${spec.gated.reason}`);
  const only = `${spec.label} works only in a place of its own: open the session in its own place`;
  if (!place || place.state !== 'active') throw new Error(only);
  if (realOrNull(place.path) !== workspace) throw new Error(`${only} (this workspace is not its place)`);
  const origin = realFolder(place.origin, 'the place’s origin');
  if (origin === workspace || isInside(workspace, origin) || isInside(origin, workspace)) {
    throw new Error(`${only} (its place and your folder overlap)`);
  }
  const gitDir = place.kind === 'worktree' ? realOrNull(path.join(origin, '.git')) : null;
  if (place.kind === 'worktree' && (!gitDir || !statSync(gitDir).isDirectory() || !isInside(gitDir, origin))) {
    throw new Error(`the place’s origin has no .git folder: ${origin}`);
  }
  return { path: workspace, origin, gitDir };
}

/** The native program of this platform, for an agent that has one; throws when this platform has none. */
function nativeProgram(spec: AgentSpec, install: string): string | null {
  if (!spec.native) return null;
  const key = `${process.platform}-${process.arch}`;
  const rel = spec.native[key];
  if (!rel) throw new Error(`${spec.label} has no program for this platform (${key})`);
  return realFile(path.join(install, rel), `${spec.label}'s program`);
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
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
    declaredEnv[baseUrlVariable] = `${modelUrlInside()}${basePathOf(inputs.model?.basePath)}`;
  }
  return { declaredEnv, secret: key || keyRelay?.key || null };
}

/** A base path is `/seg/seg` of plain characters, or nothing: it only ever extends the loopback URL inside. */
function basePathOf(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '') return '';
  if (!/^(\/[A-Za-z0-9._-]+)+$/.test(basePath) || basePath.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`bad model base path: ${JSON.stringify(basePath)}`);
  }
  return basePath;
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
