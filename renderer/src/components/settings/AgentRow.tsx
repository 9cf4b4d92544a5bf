/**
 * One agent in Settings → Agents: its name and versions, what can be done with it now
 * (Install, Update, Remove), the install's progress bar and line as the host pushes them,
 * its key variable, and its domains. A failure is said in the host's words.
 */
import { useId, useState } from 'react';
import type { AgentListing, AgentProgress } from '../../../../shared/agents';
import type { Reply } from '../../../../shared/contract';
import { useCall } from '../../api/use-call';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';
import { AgentDomains } from './AgentDomains';
import type { AgentsHandle } from './useAgents';

type Action = { kind: 'install' } | { kind: 'remove'; home: boolean };

export function AgentRow({
  agent,
  progress,
  agents,
}: {
  agent: AgentListing;
  progress: AgentProgress | undefined;
  agents: AgentsHandle;
}) {
  const nameId = useId();
  const [withHome, setWithHome] = useState(false);
  const acting = useCall((api, action: Action): Promise<Reply<unknown>> =>
    action.kind === 'install'
      ? api['agents.install']({ id: agent.id })
      : api['agents.remove']({ id: agent.id, home: action.home }),
  );
  // A staged agent (SPEC §15) is usable too: in a session place of its own.
  const usable = (agent.gated || agent.staged !== undefined) && agent.unavailable === undefined;
  const run = async (action: Action) => {
    if (action.kind === 'install') agents.clearProgress(agent.id);
    const reply = await acting.run(action);
    // Done: the versions line says what is installed now, and no bar is left half way.
    if (reply.ok) agents.clearProgress(agent.id);
    // A failed install may still have changed what is installed; the list says what is.
    agents.refresh();
    return reply;
  };
  const asked = acting.args?.[0];
  const installWord = agent.installed ? 'Update' : 'Install';

  return (
    <li className={`agent-row${usable ? '' : ' agent-row-unavailable'}`} aria-labelledby={nameId}>
      <div className="agent-head">
        <h4 id={nameId} className="agent-name">
          {agent.label}
        </h4>
        <span className="agent-versions">
          pinned {agent.pinned} ·{' '}
          {agent.installed ? <>installed {agent.installed.version}</> : <span>Not installed</span>}
        </span>
      </div>
      {usable && agent.staged !== undefined && <p className="agent-staged">{agent.staged}</p>}
      {!usable && (
        <p className="agent-unavailable">
          <VisibleText
            className="visible-prose"
            text={`Not available: ${agent.unavailable ?? 'it cannot be held to the gate yet'}`}
            options={PROSE_OPTIONS}
          />
        </p>
      )}
      {usable && (
        <>
          <div className="agent-actions">
            {agent.installed?.version !== agent.pinned && (
              <button
                type="button"
                className={agent.installed ? undefined : 'primary'}
                aria-describedby={nameId}
                disabled={acting.pending}
                onClick={() => void run({ kind: 'install' })}
              >
                {installWord}
                {agent.installed ? ` to ${agent.pinned}` : ''}
              </button>
            )}
            {agent.installed && (
              <>
                <button
                  type="button"
                  aria-describedby={nameId}
                  disabled={acting.pending}
                  onClick={() => void run({ kind: 'remove', home: withHome })}
                >
                  Remove
                </button>
                <label className="agent-remove-home">
                  <input type="checkbox" checked={withHome} onChange={(e) => setWithHome(e.target.checked)} /> and its
                  private home (its own login)
                </label>
              </>
            )}
            {acting.pending && asked && (
              <span role="status">{asked.kind === 'install' ? `${installWord}ing…` : 'Removing…'}</span>
            )}
          </div>
          {progress && <ProgressLine progress={progress} label={agent.label} />}
          {acting.error !== null && asked && (
            <p className="dialog-error" role="alert">
              Could not {asked.kind === 'install' ? installWord.toLowerCase() : 'remove'} {agent.label}:{' '}
              <VisibleText className="visible-prose" text={acting.error} options={PROSE_OPTIONS} />
            </p>
          )}
          <KeyLine agent={agent} />
          <AgentDomains agent={agent} onSaved={agents.replace} />
        </>
      )}
    </li>
  );
}

/** The bar (exact where the fraction is known, else moving) and the host's line; a failure is an alert. */
function ProgressLine({ progress, label }: { progress: AgentProgress; label: string }) {
  const failed = progress.phase === 'failed';
  const done = progress.phase === 'done';
  return (
    <div className="agent-progress">
      {!failed && !done && (
        <progress
          max={1}
          value={progress.fraction}
          aria-label={`${label}: ${progress.phase}`}
          {...(progress.fraction === undefined ? {} : { 'aria-valuetext': `${Math.round(progress.fraction * 100)}%` })}
        />
      )}
      <p className={failed ? 'dialog-error' : 'field-help'} role={failed ? 'alert' : 'status'}>
        <VisibleText className="visible-prose" text={progress.line} options={PROSE_OPTIONS} />
      </p>
    </div>
  );
}

/** The key variable's name and whether it is set; its value never reaches the window. */
function KeyLine({ agent }: { agent: AgentListing }) {
  return (
    <p className="field-help agent-key">
      <code>{agent.keyVariable}</code>{' '}
      {agent.keySet
        ? 'is set'
        : agent.keySaved !== undefined
          ? `is not set: it uses the ${agent.keySaved} key saved in Gatehouse, which Gatehouse adds to its requests outside its jail`
          : 'is not set: the agent’s own login in its private home works too'}
    </p>
  );
}
