/** One transcript item, by kind. */
import type { TranscriptItem, UsageTotals } from '../../../../shared/reducer';
import type { LiveOutput as LiveOutputData } from '../../store/live-output';
import { ArgvTokens } from '../cards/ArgvTokens';
import { PermissionCard } from '../cards/PermissionCard';
import { VisibleText } from '../cards/VisibleText';
import { turnUsageWords } from '../context/usage-words';
import { ContextDivider } from './ContextDivider';
import { Markdown } from './Markdown';
import { mcpToolParts } from '../../../../shared/mcp-tool-name';
import { MessageRow } from './MessageRow';
import { ToolRow } from './ToolRow';

interface RowProps {
  sessionId: string;
  workspace: string;
  item: TranscriptItem;
  liveOutput: Record<string, LiveOutputData>;
  /** For a turn_end row: what the turn's model calls used and cost. */
  turnUsage?: UsageTotals;
}

const TURN_END_WORDS = {
  finished: 'Turn finished',
  cancelled: 'Turn cancelled',
  error: 'Turn ended with an error',
  interrupted: 'Turn interrupted',
} as const;

export function TranscriptRow({ sessionId, workspace, item, liveOutput, turnUsage }: RowProps) {
  switch (item.kind) {
    case 'user':
      return <MessageRow role="user" text={item.text} />;
    case 'assistant':
      return <MessageRow role="assistant" text={item.text} />;
    case 'tool':
      return <ToolRow item={item} live={liveOutput[item.toolCallId]} />;
    case 'card':
      return (
        <PermissionCard
          sessionId={sessionId}
          workspace={workspace}
          card={item.card}
          outcome={item.outcome}
          pinned={false}
        />
      );
    case 'question':
      return <QuestionRecord item={item} />;
    case 'hook':
      return (
        <div className={`event-row hook-row ${item.ok ? 'event-ok' : 'event-error'}`}>
          <p>
            <span aria-hidden="true">{item.ok ? '✓' : '✗'}</span> Hook <ArgvTokens argv={item.argv} compact />{' '}
            {item.ok ? 'passed' : `failed${item.exitCode === null ? '' : ` (exit ${item.exitCode})`}`}
          </p>
          {item.output && <pre className="code-block">{item.output}</pre>}
        </div>
      );
    case 'result':
      return (
        <div className="event-row result-row">
          <p className="event-title">Result</p>
          <Markdown text={item.summary} />
        </div>
      );
    case 'turn_end':
      return (
        <div className={`event-row turn-end turn-end-${item.reason}`}>
          <p>
            — {TURN_END_WORDS[item.reason]}
            {item.message ? `: ${item.message}` : ''} —
          </p>
          {turnUsage && turnUsage.calls > 0 && <p className="turn-usage">{turnUsageWords(turnUsage)}</p>}
        </div>
      );
    case 'context':
      return <ContextDivider event={item.event} />;
    case 'error':
      return (
        <div className="event-row box-danger error-row" role="note">
          <p>
            <strong>Error:</strong> {item.message}
          </p>
        </div>
      );
    case 'mcp_change':
      return <McpChangeDivider item={item} />;
  }
}

/** An MCP tool the session had allowed changed (SPEC §10 pinning): a quiet divider, like the context's. */
function McpChangeDivider({ item }: { item: Extract<TranscriptItem, { kind: 'mcp_change' }> }) {
  const tool = mcpToolParts(item.tool, item.server)?.tool || item.tool;
  const voided =
    item.voided === 0
      ? ''
      : item.voided === 1
        ? '; the 1 call you allowed for this session no longer counts'
        : `; the ${item.voided} calls you allowed for this session no longer count`;
  return (
    <div className="context-divider mcp-change-divider">
      <p className="context-divider-text">
        The MCP tool <VisibleText className="visible-prose" text={`${item.server} · ${tool}`} /> changed{voided}. Its
        next call asks again and shows what changed.
      </p>
    </div>
  );
}

function QuestionRecord({ item }: { item: Extract<TranscriptItem, { kind: 'question' }> }) {
  const outcome =
    item.answer !== undefined
      ? `Answered: ${item.answer}`
      : item.withdrawn !== undefined
        ? `Withdrawn (${item.withdrawn})`
        : 'waiting — answer the question above the composer';
  return (
    <div
      className={`event-row question-row${item.answer === undefined && item.withdrawn === undefined ? ' question-open' : ''}`}
    >
      <p className="event-title">Question: {item.question.question}</p>
      <p className="question-outcome">{outcome}</p>
    </div>
  );
}
