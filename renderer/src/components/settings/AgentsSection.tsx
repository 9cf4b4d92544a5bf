/**
 * Settings → Agents (SPEC §14): each external agent Gatehouse knows, with its pinned and
 * installed versions, Install / Update / Remove with the install's progress, its key
 * variable (the name, and whether it is set: never the value), and the hosts it may reach.
 * An agent that cannot be held to the gate yet is greyed, with why. Then what holds for
 * every external agent, in the words its start card says too.
 */
import { useId } from 'react';
import { AGENT_HOLDS } from '../cards/agent-words';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { AgentRow } from './AgentRow';
import { useAgents } from './useAgents';
import './agents.css';

export function AgentsSection() {
  const headingId = useId();
  const agents = useAgents();
  const { view } = agents;
  return (
    <section className="agents" aria-labelledby={headingId}>
      <h3 id={headingId}>Agents</h3>
      <p className="field-help">
        A session can be driven by an agent you already use instead of Gatehouse’s own. Gatehouse installs it into its
        data folder at the version it pins, and holds it to the gate.
      </p>
      {view.state === 'loading' && <p className="settings-note">Reading the agents…</p>}
      {view.state === 'error' && (
        <p className="settings-note" role="note">
          <VisibleText className="visible-prose" text={`Agents: ${view.error}`} options={PROSE_OPTIONS} />
        </p>
      )}
      {view.state === 'loaded' && (
        <ul className="stack-list agent-list">
          {view.agents.map((agent) => (
            <AgentRow key={agent.id} agent={agent} progress={agents.progress[agent.id]} agents={agents} />
          ))}
        </ul>
      )}
      <h4 className="agents-holds-title">What holds for an external agent</h4>
      <ul className="agents-holds">
        {AGENT_HOLDS.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
