/**
 * Settings → Agents (SPEC §14) for the host's `agents.*` calls: the list with what is
 * installed, install and update with progress, remove, and each agent's domains, saved in
 * the settings file when the person changes them (the catalog's list otherwise). Bad input
 * (an unknown agent, a bad domain, an agent that cannot be held to the gate) is refused in
 * words and changes nothing. A key's value never leaves here: only whether it is set.
 */
import { AGENT_IDS, type AgentId, type AgentListing, type AgentProgress } from '../../../shared/agents.js';
import type { AppSettings } from '../settings/app-settings.js';
import { catalogSpec, isAgentId } from './agent-catalog.js';
import { agentDomainsProblem, normalizeAgentDomains } from './agent-domains.js';
import type { InstalledAgent } from './agent-folder.js';
import { AgentInstallError, AgentInstalls, type NpmTools } from './agent-installs.js';
import type { AgentSpec } from './agent-spec.js';
import path from 'node:path';
import type { AgentCallsPort } from './agent-calls-port.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { checkSpeaksAcp } from './acp-check.js';

/** What Settings says of a staged agent (SPEC §15) beside its name. */
export const STAGED_NOTE = 'works in a place of its own';

export interface AgentCallsDeps {
  dataDir: string;
  settings: AppSettings;
  /** The app's own environment: whether an agent's key variable is set (never its value). */
  env: () => NodeJS.ProcessEnv;
  /** The environment npm runs with: the app's without secrets (commandEnv). */
  commandEnv: () => NodeJS.ProcessEnv;
  /** The provider, in words, whose key saved in Gatehouse an agent with this key variable would use; never the key. */
  keySaved?: (keyVariable: string) => Promise<string | undefined>;
  /** The catalog's spec for an agent; tests give a local tarball instead of the registry's package. */
  catalog?: (id: AgentId) => AgentSpec;
  /** Longest one npm step may take. */
  timeoutMs?: number;
  /**
   * The jail a new install is started in to check that it speaks ACP before it replaces
   * anything (acp-check.ts); without one (a test of npm alone) nothing is checked.
   */
  sandbox?: Sandbox;
  /** Longest a new install may take to answer ACP's `initialize` (20 s by default). */
  acpCheckTimeoutMs?: number;
}

export class AgentCalls implements AgentCallsPort {
  private readonly installs: AgentInstalls;
  private readonly catalog: (id: AgentId) => AgentSpec;

  constructor(private readonly deps: AgentCallsDeps) {
    this.catalog = deps.catalog ?? catalogSpec;
    this.installs = new AgentInstalls({
      root: path.join(deps.dataDir, 'agents'),
      env: deps.commandEnv,
      ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      ...(deps.sandbox ? { checkAcp: (made) => this.checkAcp(made, deps.sandbox!) } : {}),
    });
  }

  /** Every agent Gatehouse knows, as Settings → Agents lists it. */
  async list(): Promise<AgentListing[]> {
    const tools = await this.installs.tools();
    const missing = 'missing' in tools ? tools.missing : undefined;
    return Promise.all(AGENT_IDS.map((id) => this.listing(id, missing)));
  }

  /** Installs (or updates to) the pinned version; resolves with the version in place. */
  async install(id: unknown, onProgress: (p: AgentProgress) => void): Promise<{ version: string }> {
    const spec = this.spec(id);
    if (spec.gated !== true && !spec.staged) throw new AgentInstallError(`${spec.label} ${spec.gated.reason}`);
    await this.installs.install(spec, onProgress);
    const installed = await this.installs.installed(spec);
    if (!installed) throw new AgentInstallError(`${spec.label} is not in place after its install`);
    return { version: installed.version };
  }

  /** Removes the install; `{home: true}` removes the agent's HOME with its login as well. */
  async remove(id: unknown, opts: { home?: boolean } = {}): Promise<void> {
    const spec = this.spec(id);
    await this.installs.remove(spec.id, opts);
  }

  /** Saves the hosts the agent may reach; a bad list is refused whole, in words. Resolves with the list as stored. */
  async setDomains(id: unknown, domains: unknown): Promise<string[]> {
    const spec = this.spec(id);
    const problem = agentDomainsProblem(domains);
    if (problem) throw new AgentInstallError(`${spec.label}'s domains were not changed: ${problem}`);
    const agentDomains = { ...this.deps.settings.current().agentDomains };
    agentDomains[spec.id] = normalizeAgentDomains(domains as string[]);
    await this.deps.settings.update({ agentDomains });
    return this.domainsOf(spec);
  }

  /** What is installed for the agent, whatever its version, or null. */
  async installed(id: unknown): Promise<InstalledAgent | null> {
    return this.installs.installed(this.spec(id));
  }

  /** The agent's spec with the domains the person chose (the catalog's until they change them). */
  spec(id: unknown): AgentSpec {
    if (!isAgentId(id)) {
      throw new AgentInstallError(`there is no agent ${JSON.stringify(id)}; Gatehouse knows ${AGENT_IDS.join(', ')}`);
    }
    const spec = this.catalog(id);
    return { ...spec, domains: this.domainsOf(spec) };
  }

  /** node and npm on the app's PATH (the jail runs the entry with this node), or the line saying which is missing. */
  tools(): Promise<NpmTools> {
    return this.installs.tools();
  }

  /** Stops installs under way (the app is quitting); their previous installs stay. */
  close(): Promise<void> {
    return this.installs.stopAll();
  }

  private async checkAcp(
    made: { spec: AgentSpec; prefix: string; version: string; node: string; signal: AbortSignal },
    sandbox: Sandbox,
  ): Promise<void> {
    await checkSpeaksAcp({
      ...made,
      dataDir: this.deps.dataDir,
      sandbox,
      env: this.deps.commandEnv(),
      ...(this.deps.acpCheckTimeoutMs !== undefined ? { timeoutMs: this.deps.acpCheckTimeoutMs } : {}),
    });
  }

  private domainsOf(spec: AgentSpec): string[] {
    const saved = this.deps.settings.current().agentDomains[spec.id];
    // A list edited by hand into something the proxy cannot read falls back to the catalog's.
    return saved !== undefined && agentDomainsProblem(saved) === null ? [...saved] : [...spec.domains];
  }

  private async listingOf(id: AgentId): Promise<AgentListing> {
    const tools = await this.installs.tools();
    return this.listing(id, 'missing' in tools ? tools.missing : undefined);
  }

  private async listing(id: AgentId, missingTools: string | undefined): Promise<AgentListing> {
    const spec = this.spec(id);
    await this.installs.recover(id);
    const installed = await this.installs.installed(spec);
    const unavailable = spec.gated !== true && !spec.staged ? spec.gated.reason : missingTools;
    const keySet = (this.deps.env()[spec.keyVariable] ?? '').trim() !== '';
    // The saved key is offered only where the environment has none (agent-start-card.ts).
    const savedFor = keySet ? undefined : await this.deps.keySaved?.(spec.keyVariable);
    return {
      id,
      label: spec.label,
      pinned: spec.version,
      installed: installed ? { version: installed.version } : null,
      gated: spec.gated === true,
      ...(spec.staged ? { staged: STAGED_NOTE } : {}),
      ...(unavailable !== undefined ? { unavailable } : {}),
      domains: spec.domains,
      keyVariable: spec.keyVariable,
      keySet,
      ...(savedFor ? { keySaved: savedFor } : {}),
    };
  }
}
