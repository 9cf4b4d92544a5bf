/**
 * A session's transcript, virtualized: only rows near the viewport are in the DOM, and each
 * is measured as it renders and again when it changes height (a tool row expanding). It
 * follows new content while the reader is at the bottom and stays put once they scroll up,
 * offering a way back down.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { SessionState, TranscriptItem, UsageTotals } from '../../../../shared/reducer';
import type { LiveOutput as LiveOutputData } from '../../store/live-output';
import { rewoundMark } from '../changes/Rewound';
import { withoutEchoedResults } from './echoed-result';
import { MessageRow } from './MessageRow';
import { TranscriptRow, type RowMarks } from './TranscriptRow';
import './transcript.css';

export interface TranscriptProps {
  sessionId: string;
  workspace: string;
  items: TranscriptItem[];
  streaming: string | null;
  liveOutput: Record<string, LiveOutputData>;
  /** Usage per turn id (SessionState.usage.turns), shown on each finished turn. */
  turnUsage?: Readonly<Record<string, UsageTotals>>;
  /** What the rows show of the checkpoints (SPEC §12); a transcript shown on its own has none. */
  checkpoints?: TranscriptCheckpoints;
}

export type TranscriptCheckpoints = Pick<SessionState, 'changedPaths' | 'undone' | 'rewound'> & {
  /** A turn is running now. */
  running: boolean;
};

/** Within this many pixels of the end counts as "at the bottom". */
const BOTTOM_SLACK_PX = 48;
const ROW_ESTIMATE_PX = 56;

export function Transcript(props: TranscriptProps) {
  // A new session starts at its bottom, with its own measurements.
  return <TranscriptList key={props.sessionId} {...props} />;
}

function TranscriptList({
  sessionId,
  workspace,
  items: allItems,
  streaming,
  liveOutput,
  turnUsage = NO_USAGE,
  checkpoints = NO_CHECKPOINTS,
}: TranscriptProps) {
  const items = useMemo(() => withoutEchoedResults(allItems), [allItems]);
  const messages = useMemo(() => messageTexts(allItems), [allItems]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickRef = useRef(true);
  const [stuck, setStuck] = useState(true);
  const count = items.length + (streaming !== null ? 1 : 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 6,
    getItemKey: (index) => (index < items.length ? `seq-${(items[index] as TranscriptItem).seq}` : 'streaming'),
  });
  const totalSize = virtualizer.getTotalSize();

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    stickRef.current = atBottom;
    setStuck(atBottom);
  }, []);

  const toBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // After every change in content or measured height: follow it if the reader was following.
  useLayoutEffect(() => {
    if (stickRef.current) toBottom();
  }, [count, streaming, totalSize, toBottom]);

  const jump = () => {
    stickRef.current = true;
    setStuck(true);
    toBottom();
  };

  return (
    <div className="transcript">
      <div ref={scrollRef} className="transcript-scroll" onScroll={onScroll} aria-label="Transcript" role="log">
        {count === 0 && <p className="transcript-empty">Nothing here yet. Send a message to start.</p>}
        <div className="transcript-space" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              className="transcript-row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {row.index < items.length ? (
                <Row
                  sessionId={sessionId}
                  workspace={workspace}
                  item={items[row.index] as TranscriptItem}
                  live={liveOf(items[row.index] as TranscriptItem, liveOutput)}
                  usage={usageOf(items[row.index] as TranscriptItem, turnUsage)}
                  {...marksOf(items[row.index] as TranscriptItem, checkpoints, messages)}
                />
              ) : (
                <MessageRow role="assistant" text={streaming ?? ''} streaming />
              )}
            </div>
          ))}
        </div>
      </div>
      {!stuck && (
        <button type="button" className="transcript-jump" onClick={jump}>
          ↓ Jump to latest
        </button>
      )}
    </div>
  );
}

function liveOf(item: TranscriptItem, liveOutput: Record<string, LiveOutputData>): LiveOutputData | undefined {
  return item.kind === 'tool' && !item.result ? liveOutput[item.toolCallId] : undefined;
}

/** A turn's totals are replaced only when that turn's usage changes, so other rows keep their memo. */
function usageOf(item: TranscriptItem, turnUsage: Readonly<Record<string, UsageTotals>>): UsageTotals | undefined {
  return item.kind === 'turn_end' ? turnUsage[item.turnId] : undefined;
}

/** The checkpoint marks of one row, as plain values, so a row whose marks did not change keeps its memo. */
function marksOf(item: TranscriptItem, c: TranscriptCheckpoints, messages: ReadonlyMap<number, string>): RowMarks {
  return {
    running: item.kind === 'user' && c.running,
    changedFiles: item.kind === 'turn_end' ? (c.changedPaths[item.turnId]?.length ?? 0) : 0,
    undone: item.kind === 'turn_end' && c.undone[item.turnId] !== undefined,
    rewound: rewoundMark(c.rewound, item.seq),
    message: item.kind === 'rewind' ? messages.get(item.event.messageSeq) : undefined,
  };
}

/** The text of each message the person sent, by seq, for the rewinds that name one. */
function messageTexts(items: readonly TranscriptItem[]): ReadonlyMap<number, string> {
  return new Map(items.flatMap((item) => (item.kind === 'user' ? [[item.seq, item.text] as const] : [])));
}

interface RowProps extends RowMarks {
  sessionId: string;
  workspace: string;
  item: TranscriptItem;
  live: LiveOutputData | undefined;
  usage: UsageTotals | undefined;
}

/** Only the row whose item, live output or marks changed renders again: items are replaced, never edited. */
const Row = memo(function Row({ sessionId, workspace, item, live, usage, ...marks }: RowProps) {
  const liveOutput = live && item.kind === 'tool' ? { [item.toolCallId]: live } : NO_LIVE;
  return (
    <TranscriptRow
      sessionId={sessionId}
      workspace={workspace}
      item={item}
      liveOutput={liveOutput}
      turnUsage={usage}
      marks={marks}
    />
  );
});

const NO_LIVE: Record<string, LiveOutputData> = {};
const NO_USAGE: Readonly<Record<string, UsageTotals>> = {};
const NO_CHECKPOINTS: TranscriptCheckpoints = { changedPaths: {}, undone: {}, rewound: [], running: false };
