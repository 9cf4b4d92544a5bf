/**
 * A tool call as one row (one call, one row): `▸ write_file src/a.ts  Allowed once · ✓ done
 * · changed 1 file`. The line says the call, its answer, its state in words and what it
 * changed; under it, the files it changed (each opens as a diff) and a running command's
 * live output. Opened, it shows what its cards asked, then the arguments and the result.
 *
 * An open card is answered in one place only, pinned above the composer; here its row says
 * so, and its content is a click away. An MCP tool (mcp__<server>__<tool>) is labelled
 * `<server> · <tool>`.
 */
import { useState } from 'react';
import { mcpToolParts } from '../../../../shared/mcp-tool-name';
import type { CardEvent } from '../../../../shared/reducer';
import type { LiveOutput as LiveOutputData } from '../../store/live-output';
import { ArgvTokens } from '../cards/ArgvTokens';
import { cardView } from '../cards/card-views';
import { EditsRecord } from '../cards/EditsRecord';
import { CODE_OPTIONS } from '../cards/visible-text';
import { VisibleText } from '../cards/VisibleText';
import { ChangedFiles } from '../changes/ChangedFiles';
import { LiveOutput } from './LiveOutput';
import { ToolCards } from './ToolCards';
import { toolSummary } from './tool-summary';
import {
  answerWords,
  changedWords,
  STATE_MARKS,
  STATE_WORDS,
  toolState,
  type ToolItem,
  type ToolState,
} from './tool-row-state';

interface ToolRowProps {
  sessionId: string;
  workspace: string;
  item: ToolItem;
  live: LiveOutputData | undefined;
}

export function ToolRow({ sessionId, workspace, item, live }: ToolRowProps) {
  const [open, setOpen] = useState(false);
  const state = toolState(item);
  const last = item.cards?.at(-1);
  return (
    <div className={`tool-row tool-row-${state}`} data-card-id={last?.card.cardId}>
      <ToolLine item={item} state={state} open={open} onToggle={() => setOpen(!open)} />
      {last && last.outcome.state !== 'open' && <RecordNote card={last.card} />}
      {/* Allowed with the person's edits: the proposal against what was written, a click away. */}
      {last?.outcome.state === 'answered' && last.outcome.edited && (
        <EditsRecord sessionId={sessionId} cardId={last.card.cardId} />
      )}
      {item.changed && item.changed.length > 0 && (
        <ChangedFiles sessionId={sessionId} turnId={item.turnId} toolCallId={item.toolCallId} changed={item.changed} />
      )}
      {!item.result && live && <LiveOutput output={live} />}
      {open && <ToolDetails sessionId={sessionId} workspace={workspace} item={item} />}
    </div>
  );
}

interface ToolLineProps {
  item: ToolItem;
  state: ToolState;
  open: boolean;
  onToggle: () => void;
}

function ToolLine({ item, state, open, onToggle }: ToolLineProps) {
  const answer = answerWords(item);
  const changed = changedWords(item);
  return (
    <button type="button" className="tool-row-line" aria-expanded={open} onClick={onToggle}>
      {/* The spaces between the parts are for the accessible name; the layout spaces them itself. */}
      <span aria-hidden="true">{open ? '▾' : '▸'}</span> <ToolName item={item} /> <ToolSummary item={item} />{' '}
      {answer && <span className="tool-row-answer">{answer} ·</span>}{' '}
      <span className={`tool-row-mark tool-row-mark-${state}`}>
        {STATE_MARKS[state] && <span aria-hidden="true">{STATE_MARKS[state]} </span>}
        {STATE_WORDS[state]}
      </span>
      {changed && <span className="tool-row-changed"> · {changed}</span>}
    </button>
  );
}

function ToolName({ item }: { item: ToolItem }) {
  const mcp = mcpToolParts(item.tool, item.result?.details?.server);
  if (!mcp) return <span className="tool-row-name">{item.tool}</span>;
  return (
    <span className="tool-row-name" title={item.tool}>
      <VisibleText className="visible-prose" text={`${mcp.server} · ${mcp.tool}`} />
    </span>
  );
}

function ToolSummary({ item }: { item: ToolItem }) {
  const summary = toolSummary(item.tool, item.args);
  return (
    <span className="tool-row-summary">
      {summary.kind === 'argv' ? (
        <ArgvTokens argv={summary.argv} compact />
      ) : (
        <VisibleText text={summary.text} options={summary.kind === 'json' ? CODE_OPTIONS : undefined} />
      )}
    </span>
  );
}

/** What an answered card could reach (a command's sandbox line) stays under the row. */
function RecordNote({ card }: { card: CardEvent }) {
  const view = cardView(card.body);
  return view.RecordNote ? <view.RecordNote body={card.body} /> : null;
}

function ToolDetails({ sessionId, workspace, item }: { sessionId: string; workspace: string; item: ToolItem }) {
  return (
    <div className="tool-row-details">
      {item.cards && <ToolCards sessionId={sessionId} workspace={workspace} cards={item.cards} />}
      <p className="tool-row-label">Arguments</p>
      <pre className="code-block">{argsText(item.args)}</pre>
      {item.result ? (
        <>
          <p className="tool-row-label">{item.result.ok ? 'Result' : 'Error'}</p>
          <pre className={`code-block${item.result.ok ? '' : ' tool-output-error'}`}>{item.result.output}</pre>
        </>
      ) : (
        <p className="tool-row-label">{toolState(item) === 'running' ? 'Running…' : 'Not run.'}</p>
      )}
    </div>
  );
}

function argsText(args: unknown): string {
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}
