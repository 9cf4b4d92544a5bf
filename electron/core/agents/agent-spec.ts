/**
 * What Gatehouse knows about one external agent (SPEC §14): which npm packages make it, at
 * which pinned version, how its process is started, which hosts it may reach and which
 * variable holds its key. The catalog (agent-catalog.ts) holds one per agent; the installer
 * puts the packages in `<dataDir>/agents/<id>/pkg` and the jail runs `node <entry> <args>`
 * from there.
 */
import type { AgentId } from '../../../shared/agents.js';

export interface AgentSpec {
  id: AgentId;
  label: string;
  /** The adapter's version Gatehouse pins: the installed entry's package.json must say exactly this. */
  version: string;
  /** What `npm install` is given, each pinned exactly (`name@1.2.3`); the first holds the entry. */
  packages: string[];
  /** The adapter's script, relative to the install prefix (`node_modules/<package>/…`), run with node. */
  entry: string;
  /** Arguments after the entry (Gemini CLI's `--acp`). */
  args: string[];
  /** The hosts its process may reach through the proxy by default: its model's. */
  domains: string[];
  /** The variable its own API key is read from; passed into its jail, never shown. */
  keyVariable: string;
  /** Set in its process's environment on top of the allow-list. */
  env: Record<string, string>;
  /** `true` when it can be held to the gate today; else why not, in words. */
  gated: true | { reason: string };
}
