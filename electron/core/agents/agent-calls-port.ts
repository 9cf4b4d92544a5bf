/**
 * What the host asks of external agents for the contract's `agents.*` calls (SPEC §14).
 * A port, not the thing: the installer (agent-calls.ts) implements it, the app wires it in,
 * and the host answers in words when a build has none.
 */
import type { AgentId, AgentListing, AgentProgress } from '../../../shared/agents.js';
import type { ErrorKind } from '../error-kind.js';

export interface AgentCallsPort {
  /** Every agent Gatehouse knows, installed or not, with its domains and whether its key is set. */
  list(): Promise<AgentListing[]>;
  /** Installs (or updates to) the pinned version; resolves with the version installed. */
  install(id: AgentId, onProgress: (progress: AgentProgress) => void): Promise<{ version: string }>;
  /** Removes the installed agent, and its private home too when `home` is set. */
  remove(id: AgentId, opts: { home: boolean }): Promise<void>;
  /** Replaces the agent's domains after checking each name; resolves with the list as stored. */
  setDomains(id: AgentId, domains: string[]): Promise<string[]>;
}

/** A call about agents that cannot be done as asked (none in this build, not installed, not gated). */
export class AgentCallError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'AgentCallError';
}

/** What every `agents.*` call answers in a build without external agents. */
export const NO_AGENTS = 'external agents are not available in this build';
