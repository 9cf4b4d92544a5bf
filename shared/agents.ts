/**
 * External agents (SPEC §14) as both sides see them: which agents Gatehouse knows, what
 * Settings → Agents lists for each, and how an install reports its progress. Pure data.
 */

/** The agents Gatehouse knows how to hold to the gate (or knows it cannot yet). */
export const AGENT_IDS = ['claude-code', 'gemini-cli', 'codex', 'opencode'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** Who drives a session: the native runner, or an external agent at the version it was opened with. */
export interface SessionAgent {
  id: AgentId;
  label: string;
  version: string;
}

/** One agent as Settings → Agents lists it. */
export interface AgentListing {
  id: AgentId;
  label: string;
  /** The version Gatehouse pins and installs. */
  pinned: string;
  /** What is installed in the data folder now, if anything. */
  installed: { version: string } | null;
  /**
   * Whether it can be held to the gate today. Codex and opencode write and run by
   * themselves whatever the client says: they need a session place of their own (SPEC §15).
   */
  gated: boolean;
  /**
   * Set for an agent that is not gated but usable in a session place of its own (SPEC §15),
   * in the words Settings shows: "works in a place of its own".
   */
  staged?: string;
  /** Why it cannot be used yet, in words, when it cannot (not gated, or node/npm missing). */
  unavailable?: string;
  /** The hosts its process may reach through the proxy: its model's. Editable. */
  domains: string[];
  /** The environment variable its own API key is read from (never its value). */
  keyVariable: string;
  /** Whether that variable is set in Gatehouse's environment (the agent's own login in its HOME works too). */
  keySet: boolean;
}

/** An install, update or removal as it goes (the `agents.progress` push). */
export interface AgentProgress {
  id: AgentId;
  phase: 'resolving' | 'downloading' | 'installing' | 'checking' | 'done' | 'failed';
  /** 0..1 where it can be known (packages fetched of packages to fetch). */
  fraction?: number;
  /** One line for the person: what is happening, or why it failed. */
  line: string;
}
