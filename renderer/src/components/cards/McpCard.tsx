/**
 * A call to a tool of an MCP server (SPEC §10, UI.md card rules 1 and 8): the server and
 * the tool, the tool's description, the server's annotations as its claims, the arguments
 * exactly as the server will receive them, and, when the tool changed since the person
 * allowed it, what changed. Everything here comes from the server or the model, so all of
 * it is text nodes with invisible characters shown: never HTML, never markdown.
 */
import type { McpCardBody } from '../../../../shared/cards';
import { WarningLine } from '../frame/WarningLine';
import { byteSize } from './byte-size';
import type { CardViewProps } from './card-view-props';
import { CardWarning } from './CardWarning';
import { compactJsonText } from './compact-json';
import { LineDiffView } from './LineDiffView';
import { sortedJson } from './tool-text-diff';
import { annotationWords } from './mcp-annotations';
import { CODE_OPTIONS, PROSE_OPTIONS } from './visible-text';
import { VisibleLines } from './VisibleLines';
import { VisibleText } from './VisibleText';
import './mcp-cards.css';

export function McpCard({ body }: CardViewProps<McpCardBody>) {
  return (
    <div className="card-body card-body-mcp">
      <div className="card-subject">
        <span className="card-verb">Call</span> <VisibleText className="card-path card-mcp-name" text={body.name} />{' '}
        <span className="card-muted">on the MCP server</span> <VisibleText className="card-path" text={body.server} />{' '}
        <span className="card-tool" title="The tool's name as the model calls it">
          {body.tool}
        </span>
      </div>
      <McpDescription text={body.description} />
      <McpClaims annotations={body.annotations} />
      <McpArguments json={body.argsJson} />
      {body.changedFrom && (
        <section className="card-mcp-change" aria-label="What changed since you allowed it">
          <p className="card-mcp-change-title">
            <strong>What changed since you allowed it</strong> (before, then now):
          </p>
          <LineDiffView label="Description" before={body.changedFrom.description} after={body.description} />
          <LineDiffView
            label="Input schema"
            before={sortedJson(body.changedFrom.inputSchema)}
            after={sortedJson(body.inputSchema)}
          />
        </section>
      )}
    </div>
  );
}

function McpDescription({ text }: { text: string }) {
  if (text.trim() === '') return <p className="card-muted">The server gives no description of this tool.</p>;
  return (
    <figure className="card-mcp-figure">
      <figcaption className="card-mcp-caption">The server describes this tool as:</figcaption>
      <div className="card-mcp-description" tabIndex={0} aria-label="Tool description">
        <VisibleLines text={text} options={PROSE_OPTIONS} className="visible-prose" />
      </div>
    </figure>
  );
}

function McpClaims({ annotations }: { annotations: Record<string, unknown> | undefined }) {
  const words = annotationWords(annotations);
  if (words.length === 0) return null;
  return (
    <div className="card-mcp-claims">
      <ul className="chip-list" aria-label="The server's annotations">
        {words.map((w, i) => (
          <li key={i} className="card-mcp-chip">
            Server says: <VisibleText className="visible-prose" text={w} options={PROSE_OPTIONS} />
          </li>
        ))}
      </ul>
      <p className="card-muted card-mcp-claims-note">
        (annotations are the server&apos;s claim; this card asks anyway)
      </p>
    </div>
  );
}

function McpArguments({ json }: { json: string }) {
  const bytes = new TextEncoder().encode(json).length;
  return (
    <figure className="card-mcp-figure">
      <figcaption className="card-mcp-caption">
        Arguments, exactly as the server will receive them ({byteSize(bytes)}):
      </figcaption>
      <pre className="code-block card-mcp-json" tabIndex={0} aria-label="Arguments (JSON)">
        <VisibleLines text={json} options={CODE_OPTIONS} />
      </pre>
    </figure>
  );
}

/** Rule 8: a changed tool says so right before the answers, never scrolled away; the diff is in the card above. */
export function McpWarnings({ body }: { body: McpCardBody }) {
  if (!body.changedFrom) return null;
  return (
    <div className="card-warnings">
      <CardWarning>
        <strong>This tool changed since you allowed it.</strong> Its old and new description and input schema are shown
        above as a diff.
      </CardWarning>
    </div>
  );
}

/** The record's line: "call github · create_issue {"title":"Fix…"}". */
export function McpRecordSubject({ body, verb }: { body: McpCardBody; verb: string }) {
  return (
    <>
      {verb} <VisibleText className="visible-prose" text={`${body.server} · ${body.name}`} />{' '}
      <VisibleText className="card-record-args" text={compactJsonText(body.argsJson)} options={CODE_OPTIONS} />
    </>
  );
}

/** Under an answered call's record: it was asked again because the tool had changed. */
export function McpRecordNote({ body }: { body: McpCardBody }) {
  if (!body.changedFrom) return null;
  return (
    <WarningLine className="card-record-sandbox" loud>
      This tool had changed since you allowed it
    </WarningLine>
  );
}
