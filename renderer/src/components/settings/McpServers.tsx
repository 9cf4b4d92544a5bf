/**
 * Settings' MCP servers section (SPEC §10), for the session in the active tab: each server
 * with where it is configured, what it runs or where it connects, its state in words, what
 * it can reach, and Restart and Disable/Enable. Problems in the config files come first.
 * With no server, it says where servers are configured and how.
 *
 * Everything a config file or a server wrote (commands, URLs, errors, stderr) is shown as
 * text nodes with its invisible characters marked: a workspace's .mcp.json is untrusted.
 */
import { useId } from 'react';
import type { McpOverview, McpServerStatus, Reply } from '../../../../shared/contract';
import { useCall } from '../../api/use-call';
import { useAppStore, useHomeFolder } from '../../store/app-store';
import { CODE_OPTIONS, PROSE_OPTIONS, visibleString } from '../cards/visible-text';
import { VisibleLines } from '../cards/VisibleLines';
import { VisibleText } from '../cards/VisibleText';
import { WarningLine } from '../frame/WarningLine';
import { configPath, SCOPE_WORDS, serverStateWords, shortToolName, STATE_MARKS } from './mcp-server-words';
import { useMcpOverview, type ServerAction } from './useMcpOverview';
import './mcp-servers.css';

/** Claude Code's format, one line: what a person would put in .mcp.json. */
export const MCP_EXAMPLE =
  '{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}';

export function McpServersSection() {
  const id = useAppStore((s) => s.activeId);
  const summary = useAppStore((s) => (s.activeId ? s.sessions[s.activeId]?.summary : undefined));
  const headingId = useId();
  return (
    <section className="mcp-servers" aria-labelledby={headingId}>
      <h3 id={headingId}>MCP servers</h3>
      {id ? (
        <>
          {summary && (
            <p className="field-help">
              Of the session “{summary.title}” in <VisibleText text={summary.workspace} />
            </p>
          )}
          <SessionServers key={id} id={id} workspace={summary?.workspace} />
        </>
      ) : (
        <p className="settings-note">Open a session to see its MCP servers.</p>
      )}
    </section>
  );
}

function SessionServers({ id, workspace }: { id: string; workspace: string | undefined }) {
  const { view, act } = useMcpOverview(id);
  const home = useHomeFolder();
  const shown = (path: string) => configPath(path, workspace, home);
  if (view.state === 'loading') return <p className="settings-note">Reading this session’s MCP servers…</p>;
  if (view.state === 'error') {
    return (
      <p className="dialog-error" role="alert">
        Could not read this session’s MCP servers: {view.error}
      </p>
    );
  }
  const { servers, problems, userConfig } = view.overview;
  return (
    <>
      {problems.length > 0 && <ConfigProblems problems={problems} shown={shown} />}
      {servers.length === 0 ? (
        <NoServers userConfig={shown(userConfig)} />
      ) : (
        <>
          <ul className="stack-list mcp-server-list">
            {servers.map((server) => (
              <ServerItem key={`${server.scope}:${server.name}`} server={server} shown={shown} act={act} />
            ))}
          </ul>
          <p className="field-help">
            Configured in <code>.mcp.json</code> at the workspace root and in <code>{shown(userConfig)}</code>.
          </p>
        </>
      )}
    </>
  );
}

function ConfigProblems({ problems, shown }: { problems: McpOverview['problems']; shown: (path: string) => string }) {
  return (
    <div className="settings-warning mcp-problems" role="note">
      <p>
        <strong>Problems in the MCP config:</strong>
      </p>
      <ul>
        {problems.map((p, i) => (
          <li key={i}>
            <VisibleText text={shown(p.source)} title={p.source} />
            {p.server && (
              <>
                {' '}
                (server <VisibleText text={p.server} />)
              </>
            )}
            : <VisibleText className="visible-prose" text={p.message} options={PROSE_OPTIONS} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function NoServers({ userConfig }: { userConfig: string }) {
  return (
    <div className="mcp-empty">
      <p>This session has no MCP servers.</p>
      <p>
        Add them in Claude Code’s format to <code>.mcp.json</code> at the workspace root (each starts only after you
        allow its card), or to <code>{userConfig}</code> for servers of your own (they start without a card). For
        example:
      </p>
      <pre className="code-block mcp-example">{MCP_EXAMPLE}</pre>
    </div>
  );
}

function ServerItem({
  server,
  shown,
  act,
}: {
  server: McpServerStatus;
  shown: (path: string) => string;
  act: (server: string, action: ServerAction) => Promise<Reply<McpOverview>>;
}) {
  const acting = useCall((_api, action: ServerAction) => act(server.name, action));
  const asked = acting.args?.[0];
  const pending = acting.pending && asked ? asked.kind : null;
  const error = acting.error !== null && asked ? `Could not ${actionWords(asked)}: ${acting.error}` : null;
  const nameId = useId();
  const disabled = server.state === 'disabled';
  const run = (action: ServerAction) => void acting.run(action);

  return (
    <li className={`mcp-server mcp-server-${server.state}`}>
      <div className="mcp-server-head">
        <h4 id={nameId} className="mcp-server-name">
          <VisibleText text={server.name} />
        </h4>
        <span className="mcp-server-scope">
          {SCOPE_WORDS[server.scope]} ·{' '}
          <VisibleText className="visible-prose" text={shown(server.source)} title={server.source} />
        </span>
      </div>
      <p className="mcp-server-target" title={visibleString(server.target)}>
        <span className="mcp-server-transport">{server.transport === 'stdio' ? 'runs' : 'connects to'}</span>{' '}
        <VisibleText text={server.target} options={CODE_OPTIONS} />
      </p>
      <ServerState server={server} />
      {server.confinement && <Confinement server={server} confinement={server.confinement} />}
      <div className="mcp-server-actions">
        <button
          type="button"
          aria-describedby={nameId}
          disabled={pending !== null || disabled}
          onClick={() => run({ kind: 'restart' })}
        >
          Restart
        </button>
        <button
          type="button"
          aria-describedby={nameId}
          disabled={pending !== null}
          onClick={() => run({ kind: 'enable', enabled: disabled })}
        >
          {disabled ? 'Enable' : 'Disable'}
        </button>
        {pending && (
          <span className="mcp-server-pending" role="status">
            {pending === 'restart' ? 'Restarting…' : disabled ? 'Enabling…' : 'Disabling…'}
          </span>
        )}
      </div>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

function actionWords(action: ServerAction): string {
  if (action.kind === 'restart') return 'restart it';
  return action.enabled ? 'enable it' : 'disable it';
}

function ServerState({ server }: { server: McpServerStatus }) {
  const words = serverStateWords(server);
  const mark = (
    <span className={`mcp-state-mark mcp-state-mark-${server.state}`} aria-hidden="true">
      {STATE_MARKS[server.state]}
    </span>
  );
  if (server.state === 'ready' && server.tools.length > 0) {
    return (
      <details className="mcp-server-state mcp-server-tools">
        <summary>
          {mark} {words}
        </summary>
        <ul className="mcp-tool-list">
          {server.tools.map((tool) => (
            <li key={tool} title={tool}>
              <VisibleText text={shortToolName(server.name, tool)} options={CODE_OPTIONS} />
            </li>
          ))}
        </ul>
      </details>
    );
  }
  return (
    <div className="mcp-server-state">
      <p>
        {mark} <VisibleText className="visible-prose" text={words} options={PROSE_OPTIONS} />
      </p>
      {server.state === 'failed' && server.stderrTail && (
        <>
          <p className="field-help">The last lines it wrote to stderr:</p>
          <pre className="code-block mcp-stderr" tabIndex={0} aria-label={`stderr of ${server.name}`}>
            <VisibleLines text={server.stderrTail} options={CODE_OPTIONS} />
          </pre>
        </>
      )}
    </div>
  );
}

function Confinement({ server, confinement }: { server: McpServerStatus; confinement: string }) {
  // A workspace's server that runs unconfined is worth a look; the user's own is their choice.
  const loud = server.scope === 'workspace' && server.confined === false;
  return (
    <WarningLine className="mcp-server-confinement" loud={loud}>
      <VisibleText className="visible-prose" text={confinement} options={PROSE_OPTIONS} />
    </WarningLine>
  );
}
