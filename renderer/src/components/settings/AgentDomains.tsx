/**
 * The hosts one agent's process may reach through Gatehouse's proxy (SPEC §14): the list,
 * Remove on each, and a field that adds one. The host checks every name and answers with
 * the list it stored, which is what this shows, or with why not, shown as it came.
 */
import { useId, useState, type FormEvent } from 'react';
import type { AgentListing } from '../../../../shared/agents';
import { useCall } from '../../api/use-call';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';

export function AgentDomains({ agent, onSaved }: { agent: AgentListing; onSaved: (listing: AgentListing) => void }) {
  const [draft, setDraft] = useState('');
  const saving = useCall((api, domains: string[]) => api['agents.setDomains']({ id: agent.id, domains }));
  const inputId = useId();
  const listLabel = `Hosts ${agent.label} may reach`;

  const save = async (domains: string[]): Promise<boolean> => {
    const reply = await saving.run(domains);
    if (reply.ok) onSaved({ ...agent, domains: reply.data.domains });
    return reply.ok;
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const name = draft.trim();
    if (!name) return;
    if (await save([...agent.domains, name])) setDraft('');
  };

  return (
    <div className="agent-domains">
      <p className="field-help">
        {agent.domains.length === 0
          ? 'No network: its process reaches no host.'
          : 'Its process may reach only these hosts, through Gatehouse’s proxy:'}
      </p>
      {agent.domains.length > 0 && (
        <ul className="agent-domain-list" aria-label={listLabel}>
          {agent.domains.map((d) => (
            <li key={d}>
              <VisibleText text={d} />{' '}
              <button
                type="button"
                disabled={saving.pending}
                aria-label={`Remove ${d}`}
                onClick={() => void save(agent.domains.filter((x) => x !== d))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="agent-domain-add" onSubmit={(e) => void add(e)}>
        <label htmlFor={inputId}>Add a host for {agent.label}</label>
        <input
          id={inputId}
          type="text"
          className="mono"
          value={draft}
          placeholder="api.example.com"
          spellCheck={false}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" disabled={saving.pending || !draft.trim()}>
          Add
        </button>
      </form>
      {saving.error && (
        <p className="dialog-error" role="alert">
          <VisibleText className="visible-prose" text={saving.error} options={PROSE_OPTIONS} />
        </p>
      )}
    </div>
  );
}
