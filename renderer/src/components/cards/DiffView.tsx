/**
 * A card's diff, side by side or line by line, windowed: only the rows in view are in the
 * DOM, so a 64 KiB diff paints its first screenful as fast as a small one (DESIGN.md,
 * Known traps: diff2html's whole HTML took 450–640 ms to paint). Rows use diff2html's CSS
 * classes for the look, and every piece of file content is a React text node.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import 'diff2html/bundles/css/diff2html.min.css';
import { diffRowsFor, type LineRow, type SplitRow, type UnifiedRow } from './diff-rows';
import { CODE_OPTIONS } from './visible-text';
import { VisibleText } from './VisibleText';
import './diff-view.css';

export type DiffLayout = 'split' | 'unified';

const ROW_ESTIMATE_PX = 20;
/** The diff scrolls inside the card beyond this, so the card's buttons stay in reach. */
const MAX_HEIGHT_PX = 480;

interface DiffViewProps {
  cardId: string;
  diff: string;
  /**
   * A line of the new side to keep in view (the line the person is editing on a card): each
   * time the diff or the line changes, the rows scroll just enough to show it.
   */
  followLine?: number;
}

/**
 * Memoized: a card being edited re-renders on every keystroke, and the diff it shows changes
 * only when the core's rebuild arrives.
 */
export const DiffView = memo(function DiffView({ cardId, diff, followLine }: DiffViewProps) {
  const [layout, setLayout] = useState<DiffLayout>('split');
  const rows = useMemo(() => diffRowsFor(cardId, diff), [cardId, diff]);
  const list: readonly (UnifiedRow | SplitRow)[] = layout === 'split' ? rows.split : rows.unified;
  return (
    <div className={`diff-view d2h-wrapper diff-view-${layout}`}>
      <div className="diff-view-bar">
        <span className="diff-view-stats">
          <span className="diff-count-added">+{rows.added}</span>{' '}
          <span className="diff-count-deleted">−{rows.deleted}</span> lines
        </span>
        <div className="diff-view-layout" role="group" aria-label="Diff layout">
          <button type="button" aria-pressed={layout === 'split'} onClick={() => setLayout('split')}>
            Side by side
          </button>
          <button type="button" aria-pressed={layout === 'unified'} onClick={() => setLayout('unified')}>
            Line by line
          </button>
        </div>
      </div>
      {list.length === 0 ? (
        <p className="diff-view-empty">No lines to show.</p>
      ) : (
        <DiffRowsWindow key={layout} rows={list} followLine={followLine} />
      )}
    </div>
  );
});

function DiffRowsWindow({ rows, followLine }: { rows: readonly (UnifiedRow | SplitRow)[]; followLine?: number }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 12,
  });
  useEffect(() => {
    if (followLine === undefined) return;
    const index = rowOfNewLine(rows, followLine);
    if (index < 0) return;
    // From the virtualizer's own numbers, no DOM read: a row already in view costs nothing
    // (scrolling to it anyway forced a layout on every keystroke).
    const item = virtualizer.measurementsCache[index];
    const top = virtualizer.scrollOffset;
    const height = virtualizer.scrollRect?.height;
    if (item && top !== null && height !== undefined && item.start >= top && item.end <= top + height) return;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [rows, followLine, virtualizer]);
  return (
    <div
      ref={scrollRef}
      className="diff-view-scroll"
      tabIndex={0}
      aria-label="Diff lines"
      style={{ height: Math.min(virtualizer.getTotalSize(), MAX_HEIGHT_PX) }}
    >
      <div className="diff-view-space" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className="diff-view-row"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <DiffRow row={rows[item.index] as UnifiedRow | SplitRow} />
          </div>
        ))}
      </div>
    </div>
  );
}

function DiffRow({ row }: { row: UnifiedRow | SplitRow }) {
  if (row.kind === 'hunk') return <div className="d2h-info diff-view-hunk">{row.header}</div>;
  if (row.kind === 'line') return <UnifiedLine line={row} />;
  return (
    <div className="diff-view-pair">
      <SideLine line={row.left} side="old" />
      <SideLine line={row.right} side="new" />
    </div>
  );
}

const TYPE_CLASS: Record<LineRow['type'], string> = { insert: 'd2h-ins', delete: 'd2h-del', context: 'd2h-cntx' };

function UnifiedLine({ line }: { line: LineRow }) {
  return (
    <div className={`diff-view-line ${TYPE_CLASS[line.type]}`}>
      <span className="diff-view-num">{line.oldNumber ?? ''}</span>
      <span className="diff-view-num">{line.newNumber ?? ''}</span>
      <LineContent line={line} />
    </div>
  );
}

function SideLine({ line, side }: { line: LineRow | null; side: 'old' | 'new' }) {
  if (!line) return <div className="diff-view-line d2h-emptyplaceholder" aria-hidden="true" />;
  const number = side === 'old' ? line.oldNumber : line.newNumber;
  return (
    <div className={`diff-view-line ${TYPE_CLASS[line.type]}`}>
      <span className="diff-view-num">{number ?? ''}</span>
      <LineContent line={line} />
    </div>
  );
}

function LineContent({ line }: { line: LineRow }) {
  return (
    <>
      <span className="d2h-code-line-prefix diff-view-prefix">{line.prefix}</span>
      <span className="d2h-code-line-ctn diff-view-text">
        <VisibleText text={line.text} options={CODE_OPTIONS} />
        {line.noNewline && (
          <span className="diff-view-no-newline" title="No newline at end of file">
            {' '}
            ⏎̸ no newline at end of file
          </span>
        )}
      </span>
    </>
  );
}

/** The first row showing the new side's line `line` or a later one; -1 when none does. */
function rowOfNewLine(rows: readonly (UnifiedRow | SplitRow)[], line: number): number {
  return rows.findIndex((row) => {
    const shown = row.kind === 'pair' ? row.right : row.kind === 'line' ? row : null;
    return shown?.newNumber !== undefined && shown.newNumber >= line;
  });
}
