/**
 * A workspace's MCP server about to start (SPEC §10): a command like any other (UI.md card
 * rules 1, 2 and 7): its exact argv, its folder, the names of the variables it is given
 * (never their values), and what the sandbox lets it reach, which for a server includes
 * the network. An HTTP server runs nothing here: its card names the URL and the headers.
 * Either way it names each of the person's own variables the config takes, and where each
 * goes: a checkout's file can send a token to a URL of its choosing.
 */
import type { McpServerCardBody, McpVariableFeed } from '../../../../shared/cards';
import { ArgvTokens } from './ArgvTokens';
import type { CardViewProps } from './card-view-props';
import { CardWarning } from './CardWarning';
import { FolderLine } from './CommandCard';
import { SandboxLine, SandboxRecordLine, SandboxWarnings } from './SandboxNotes';
import { PROSE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';
import { workspaceRelative } from './workspace-path';
import './mcp-cards.css';

export function McpServerCard({ workspace, body, inRecord }: CardViewProps<McpServerCardBody>) {
  return (
    <div className="card-body card-body-mcp-server">
      <div className="card-subject">
        <span className="card-verb">Start MCP server</span> <VisibleText className="card-path" text={body.server} />
      </div>
      <p className="card-detail">
        from <VisibleText className="card-path" text={workspaceRelative(workspace, body.source)} title={body.source} />
      </p>
      {body.argv && (
        <>
          <ArgvTokens argv={body.argv} />
          {body.cwd !== undefined && <FolderLine workspace={workspace} cwd={body.cwd} />}
          <Names label="Sets the variables" names={body.envNames} none="Sets no variables of its own." />
          {!inRecord && <SandboxLine body={body} />}
        </>
      )}
      {body.url !== undefined && (
        <>
          <p className="card-mcp-url">
            Connects to <VisibleText className="card-path" text={body.url} />
          </p>
          <Names label="Sends the headers" names={body.headerNames} none="Sends no headers of its own." />
          <p className="card-sandbox">Nothing runs on this machine: Gatehouse only connects to this URL.</p>
        </>
      )}
      <VariableFeeds feeds={body.variables} />
    </div>
  );
}

const FEEDS_LABEL = 'Takes your environment variables';

/** "header Authorization ← $GITHUB_TOKEN": which of the person's variables goes where; the card has no value. */
function VariableFeeds({ feeds }: { feeds: McpVariableFeed[] | undefined }) {
  if (!feeds || feeds.length === 0) return null;
  return (
    <div className="card-detail card-mcp-names">
      <span>{FEEDS_LABEL} (values not shown):</span>
      <ul className="chip-list" aria-label={FEEDS_LABEL}>
        {feeds.map((feed) => (
          <li key={`${feed.field}←${feed.variable}`} className="card-mcp-env">
            <VisibleText text={feed.field} /> ← <VisibleText text={`$${feed.variable}`} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Variable or header names as tokens; their values may be secrets, so the card never has them. */
function Names({ label, names, none }: { label: string; names: string[] | undefined; none: string }) {
  if (!names || names.length === 0) return <p className="card-detail">{none}</p>;
  return (
    <div className="card-detail card-mcp-names">
      <span>{label} (values not shown):</span>
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

/** Before the answers: a changed config, and a server that cannot be confined. */
export function McpServerWarnings({ body }: { body: McpServerCardBody }) {
  return (
    <>
      {body.changed && (
        <div className="card-warnings">
          <CardWarning>
            <strong>Its config changed since you allowed it:</strong>{' '}
            <VisibleText className="visible-prose" text={body.changed} options={PROSE_OPTIONS} />
          </CardWarning>
        </div>
      )}
      {body.argv && <SandboxWarnings body={body} />}
    </>
  );
}

/** The record's line: "start MCP server github npx -y …" or its URL. */
export function McpServerRecordSubject({ body, verb }: { body: McpServerCardBody; verb: string }) {
  return (
    <>
      {verb} MCP server <VisibleText className="visible-prose" text={body.server} />{' '}
      {body.argv ? <ArgvTokens argv={body.argv} compact /> : <VisibleText text={body.url ?? ''} />}
    </>
  );
}

export function McpServerRecordNote({ body }: { body: McpServerCardBody }) {
  return body.argv ? <SandboxRecordLine body={body} /> : null;
}
