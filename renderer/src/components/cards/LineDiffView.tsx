/**
 * What an MCP tool said when the person allowed it against what it says now (UI.md card
 * rule 8): a line diff with + and − on every changed line, so colour is never the only
 * mark, and every line a text node with its invisible characters shown.
 */
import { useMemo } from 'react';
import { byteSize } from './byte-size';
import { toolTextDiff, type LineDiffRow } from './tool-text-diff';
import { CODE_OPTIONS } from './visible-text';
import { VisibleLines } from './VisibleLines';
import { VisibleText } from './VisibleText';

const PREFIX: Record<LineDiffRow['type'], string> = { insert: '+', delete: '−', context: ' ' };
const SPOKEN: Record<LineDiffRow['type'], string> = { insert: 'added: ', delete: 'removed: ', context: '' };

export function LineDiffView({ label, before, after }: { label: string; before: string; after: string }) {
  const diff = useMemo(() => toolTextDiff(before, after), [before, after]);
  if (before === after) {
    return (
      <p className="line-diff-same">
        <strong>{label}:</strong> unchanged
      </p>
    );
  }
  if (diff.kind === 'too_big') {
    const bytes = (text: string) => byteSize(new TextEncoder().encode(text).length);
    return (
      <div className="line-diff">
        <p className="line-diff-caption">
          <strong>{label}:</strong> too large to compare line by line ({bytes(before)} before, {bytes(after)} now). Both
          are shown whole.
        </p>
        <p className="line-diff-caption">Before:</p>
        <pre className="code-block line-diff-whole" tabIndex={0} aria-label={`${label} before`}>
          <VisibleLines text={before} options={CODE_OPTIONS} />
        </pre>
        <p className="line-diff-caption">Now:</p>
        <pre className="code-block line-diff-whole" tabIndex={0} aria-label={`${label} now`}>
          <VisibleLines text={after} options={CODE_OPTIONS} />
        </pre>
      </div>
    );
  }
  return (
    <div className="line-diff">
      <p className="line-diff-caption">
        <strong>{label}:</strong> <span className="diff-count-added">+{diff.added}</span>{' '}
        <span className="diff-count-deleted">−{diff.deleted}</span> lines
      </p>
      <div className="code-block line-diff-lines" tabIndex={0} role="group" aria-label={`${label}, before and now`}>
        {diff.rows.map((row, i) => (
          <div key={i} className={`line-diff-row line-diff-${row.type}`}>
            <span className="line-diff-prefix" aria-hidden="true">
              {PREFIX[row.type]}
            </span>
            {/* Read out, not shown: the prefix already says it on screen. */}
            {SPOKEN[row.type] && <span className="visually-hidden">{SPOKEN[row.type]}</span>}
            <VisibleText text={row.text} options={CODE_OPTIONS} className="line-diff-text" />
          </div>
        ))}
      </div>
      {diff.hiddenRows > 0 && (
        <p className="line-diff-caption">
          <strong>Truncated:</strong> showing the first {diff.rows.length} lines; {diff.hiddenRows} more not shown.
        </p>
      )}
    </div>
  );
}
