/**
 * The Open dialog's choice of who drives the new session (SPEC §14): Gatehouse's own agent
 * by default, or an installed external agent at its installed version. One that is not
 * installed, or cannot be held to the gate yet, is listed but cannot be picked, with where
 * to go or why. A build without agents (agents.list refused) shows no choice at all.
 */
import { useEffect, useId } from 'react';
import type { AgentId, AgentListing } from '../../../../shared/agents';
import { useCall } from '../../api/use-call';

/** What the picker's value means: '' is Gatehouse's own agent. */
export type AgentChoice = AgentId | '';

interface AgentPickerProps {
  value: AgentChoice;
  /** The choice, and the agent's listing (undefined for Gatehouse's own). */
  onChange: (choice: AgentChoice, agent: AgentListing | undefined) => void;
}

export function AgentPicker({ value, onChange }: AgentPickerProps) {
  const selectId = useId();
  const helpId = useId();
  const listing = useCall((api) => api['agents.list']({}));
  const { run } = listing;
  useEffect(() => void run(), [run]);
  const agents = listing.data?.agents ?? [];
  if (agents.length === 0) return null;
  const picked = agents.find((a) => a.id === value);
  return (
    <div className="agent-picker">
      <label htmlFor={selectId}>Agent</label>
      <select
        id={selectId}
        value={value}
        aria-describedby={helpId}
        onChange={(e) => {
          const choice = e.target.value as AgentChoice;
          onChange(
            choice,
            agents.find((a) => a.id === choice),
          );
        }}
      >
        <option value="">Gatehouse’s own agent</option>
        {agents.map((agent) => (
          <option key={agent.id} value={agent.id} disabled={whyNot(agent) !== null}>
            {optionWords(agent)}
          </option>
        ))}
      </select>
      <p id={helpId} className="field-help">
        {picked ? pickedWords(picked) : 'Or an agent you already use, installed in Settings → Agents.'}
      </p>
    </div>
  );
}

/**
 * An agent that writes and runs by itself whatever the client says (Codex, opencode: a
 * staged agent): it works only in a place of its own (SPEC §15).
 */
export function worksOnlyInPlace(agent: AgentListing): boolean {
  return agent.staged !== undefined || !agent.gated;
}

function pickedWords(agent: AgentListing): string {
  return worksOnlyInPlace(agent)
    ? `${agent.label} runs jailed in a place of its own: its writes and commands run there without a card; only what you apply reaches your folder.`
    : `${agent.label} runs jailed: it sees the workspace read-only, and its writes and commands come to you as cards.`;
}

/** Why an agent cannot drive a session now, or null when it can. */
function whyNot(agent: AgentListing): string | null {
  if ((!agent.gated && agent.staged === undefined) || agent.unavailable !== undefined) return 'not available yet';
  if (!agent.installed) return 'install in Settings → Agents';
  return null;
}

function optionWords(agent: AgentListing): string {
  const why = whyNot(agent);
  return why === null ? `${agent.label} ${agent.installed!.version}` : `${agent.label} (${why})`;
}
