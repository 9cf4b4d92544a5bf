/**
 * The agent a new session is opened with: an id from `sessions.open` becomes who drives it
 * and at which version, or a refusal in words. Checked here so a session is never made for
 * an agent that could not start (not installed, or neither held to the gate nor staged).
 */
import type { AgentId, SessionAgent } from '../../../shared/agents.js';
import { AgentCallError, NO_AGENTS, type AgentCallsPort } from './agent-calls-port.js';

export async function sessionAgentOf(agents: AgentCallsPort | undefined, id: AgentId): Promise<SessionAgent> {
  if (!agents) throw new AgentCallError(NO_AGENTS);
  const listing = (await agents.list()).find((a) => a.id === id);
  if (!listing) throw new AgentCallError(`Gatehouse does not know the agent ${id}`);
  // A staged agent (SPEC §15) drives a session too: the places room gives it a place of its
  // own, and its launch is refused in any folder that is not its place (agent-start-card.ts).
  if ((!listing.gated && listing.staged === undefined) || listing.unavailable) {
    throw new AgentCallError(
      `${listing.label} cannot drive a session here: ${listing.unavailable ?? 'it is not held to the gate'}`,
    );
  }
  if (!listing.installed)
    throw new AgentCallError(`${listing.label} is not installed: install it in Settings → Agents`);
  return { id, label: listing.label, version: listing.installed.version };
}
