/**
 * An external agent about to start (SPEC §14; UI.md card rules 1, 2 and 7): the exact argv
 * of its jailed process as tokens, the pinned version, what it sees read-only and the one
 * place it may write, the hosts it may reach, and the names (never the values) of the
 * variables it is given. Then what holds for it, in the same words Settings says.
 */
import type { AgentStartCardBody } from '../../../../shared/cards';
import { AGENT_HOLDS } from './agent-words';
import { ArgvTokens } from './ArgvTokens';
import type { CardViewProps } from './card-view-props';
import { VisibleText } from './VisibleText';
import './agent-cards.css';

export function AgentStartCard({ body, inRecord }: CardViewProps<AgentStartCardBody>) {
  return (
    <div className="card-body card-body-agent-start">
      <div className="card-subject">
        <span className="card-verb">Start</span> <VisibleText className="visible-prose" text={body.label} />{' '}
        <span className="card-muted">version</span> <VisibleText text={body.version} />
      </div>
      <ArgvTokens argv={body.argv} />
      <Paths label="Sees read-only" paths={body.readOnly} none="Sees nothing of your files." notes={gitNote(body)} />
      <Paths label="May write only in" paths={body.writable} none="May write nowhere." />
      {body.place && (
        <p className="card-detail agent-place">
          <VisibleText
            className="visible-prose"
            text={`${body.place.words.charAt(0).toUpperCase()}${body.place.words.slice(1)}. It cannot see your folder`}
          />{' '}
          <VisibleText text={body.place.origin} />.
        </p>
      )}
      {body.domains.length === 0 ? (
        <p className="card-detail">No network.</p>
      ) : (
        <Names label="May reach only these hosts, through Gatehouse’s proxy" names={body.domains} />
      )}
      {body.modelEndpoint !== undefined && (
        <p className="card-detail">
          Its model is reached on this machine, past the proxy:{' '}
          <VisibleText text={body.modelEndpoint.replace(/^model endpoint on this machine: /, '')} />
        </p>
      )}
      {body.keySource !== undefined && (
        <p className="card-detail">
          <VisibleText className="visible-prose" text={body.keySource} />
        </p>
      )}
      {body.envNames.length === 0 ? (
        <p className="card-detail">Is given none of your environment variables.</p>
      ) : (
        <Names label="Is given the variables (values not shown)" names={body.envNames} />
      )}
      {!inRecord && !body.place && <AgentHolds />}
    </div>
  );
}

/** What holds for an external agent: the same sentences Settings → Agents says. */
export function AgentHolds() {
  return (
    <div className="card-sandbox">
      <span className="card-sandbox-lead">What holds for it:</span>
      <ul className="agent-holds" aria-label="What holds for an external agent">
        {AGENT_HOLDS.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A staged agent in a worktree sees the person's `.git` read-only beside "it cannot see your
 * folder": said why on its line, so the two do not read as a contradiction.
 */
function gitNote(body: AgentStartCardBody): Record<string, string> {
  if (!body.place) return {};
  const gitDir = `${body.place.origin.replace(/\/+$/, '')}/.git`;
  return body.readOnly.includes(gitDir)
    ? { [gitDir]: 'your repository’s history only, not its files, so git works in its place' }
    : {};
}

function Paths({
  label,
  paths,
  none,
  notes = {},
}: {
  label: string;
  paths: string[];
  none: string;
  notes?: Record<string, string>;
}) {
  if (paths.length === 0) return <p className="card-detail">{none}</p>;
  return (
    <div className="card-detail agent-paths">
      <span>{label}:</span>
      <ul aria-label={label}>
        {paths.map((p) => (
          <li key={p}>
            <VisibleText className="card-path" text={p} />
            {notes[p] !== undefined && <span className="card-muted"> ({notes[p]})</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Names({ label, names }: { label: string; names: string[] }) {
  return (
    <div className="card-detail card-mcp-names">
      <span>{label}:</span>
      <ul className="chip-list" aria-label={label}>
        {names.map((name) => (
          <li key={name} className="card-mcp-env">
            <VisibleText text={name} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The record's line: "start Claude Code 0.10.0". */
export function AgentStartRecordSubject({ body, verb }: { body: AgentStartCardBody; verb: string }) {
  return (
    <>
      {verb} <VisibleText className="visible-prose" text={body.label} /> <VisibleText text={body.version} />
    </>
  );
}

/** Under the answered record: where it could write and reach (a staged agent writes in its place, your folder unseen). */
export function AgentStartRecordNote({ body }: { body: AgentStartCardBody }) {
  const writes = body.place
    ? 'writes only in its own place and its private home, your folder unseen'
    : 'the workspace read-only, writes only in its private home';
  return (
    <p className="card-record-sandbox">
      Jailed: {writes}; {body.domains.length === 0 ? 'no network' : `network only to ${body.domains.join(', ')}`}.
    </p>
  );
}
