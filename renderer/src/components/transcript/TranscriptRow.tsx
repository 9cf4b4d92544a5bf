/** One transcript item, by kind. */
import type { TranscriptItem, UsageTotals } from '../../../../shared/reducer';
import type { LiveOutput as LiveOutputData } from '../../store/live-output';
import { ArgvTokens } from '../cards/ArgvTokens';
import { PermissionCard } from '../cards/PermissionCard';
import { VisibleText } from '../cards/VisibleText';
import { CheckpointDivider } from '../changes/CheckpointDivider';
import { HookChangesRow } from '../changes/HookChangesRow';
import { Rewound, type RewoundMark } from '../changes/Rewound';
import { PlaceApplyRow, PlaceDivider } from '../places/PlaceRows';
import { AGENT_TOOL, AgentToolRow } from './AgentToolRow';
import { ContextDivider } from './ContextDivider';
import { Markdown } from './Markdown';
import { mcpToolParts } from '../../../../shared/mcp-tool-name';
import { MessageRow } from './MessageRow';
import { PlanRow } from './PlanRow';
import { ToolRow } from './ToolRow';
import { TurnEndRow } from './TurnEndRow';
import { UserMessageRow } from './UserMessageRow';

/** What a row needs of the session's checkpoints (SPEC §12), worked out by the transcript per row. */
export interface RowMarks {
  /** A turn is running: a message cannot be rewound now. */
  running: boolean;
  /** At a turn's end: the files the turn changed, and whether it was undone. */
  changedFiles: number;
  undone: boolean;
  /** In a range a rewind took out of the conversation. */
  rewound?: RewoundMark;
  /** For a rewind: the text of the message it went back to. */
  message?: string;
}

interface RowProps {
  sessionId: string;
  workspace: string;
  item: TranscriptItem;
  liveOutput: Record<string, LiveOutputData>;
  /** For a turn_end row: what the turn's model calls used and cost. */
  turnUsage?: UsageTotals;
  marks?: RowMarks;
}

const NO_MARKS: RowMarks = { running: false, changedFiles: 0, undone: false };

export function TranscriptRow(props: RowProps) {
  const rewound = props.marks?.rewound;
  const row = <RowOfKind {...props} marks={props.marks ?? NO_MARKS} />;
  return rewound ? <Rewound mark={rewound}>{row}</Rewound> : row;
}

function RowOfKind({ sessionId, workspace, item, liveOutput, turnUsage, marks }: RowProps & { marks: RowMarks }) {
  switch (item.kind) {
    case 'user':
      return <UserMessageRow item={item} running={marks.running} rewound={marks.rewound !== undefined} />;
    case 'assistant':
      return <MessageRow role="assistant" text={item.text} />;
    case 'tool':
      // An agent's own read or search: the gate holds none of it, so no card and no details.
      if (item.tool === AGENT_TOOL) return <AgentToolRow item={item} />;
      return <ToolRow sessionId={sessionId} workspace={workspace} item={item} live={liveOutput[item.toolCallId]} />;
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
          {/* A div, not a p: the argv is a list, which a paragraph cannot hold. */}
          <div className="hook-line">
            <span aria-hidden="true">{item.ok ? '✓' : '✗'}</span> Hook <ArgvTokens argv={item.argv} compact />{' '}
            {item.ok ? 'passed' : `failed${item.exitCode === null ? '' : ` (exit ${item.exitCode})`}`}
          </div>
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
    case 'plan':
      return <PlanRow item={item} />;
    case 'turn_end':
      return <TurnEndRow item={item} usage={turnUsage} changedFiles={marks.changedFiles} undone={marks.undone} />;
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
    case 'changes':
      return <HookChangesRow sessionId={sessionId} item={item} />;
    case 'undo':
    case 'redo':
    case 'rewind':
      return <CheckpointDivider item={item} message={marks.message} />;
    case 'place':
      return <PlaceDivider item={item} />;
    case 'place_apply':
      return <PlaceApplyRow item={item} />;
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
