/**
 * Untrusted text with its invisible and look-alike characters shown as marks (see
 * visible-text.ts). Every card shows paths and argv tokens through this one component.
 */
import { useMemo } from 'react';
import { TOKEN_OPTIONS, visibleSegments, visibleString, type VisibleOptions } from './visible-text';
import './visible-text.css';

export function VisibleText({
  text,
  title,
  className,
  options = TOKEN_OPTIONS,
}: {
  text: string;
  title?: string;
  className?: string;
  options?: VisibleOptions;
}) {
  const segments = useMemo(() => visibleSegments(text, options), [text, options]);
  return (
    // Isolated and left-to-right: right-to-left letters in a token cannot reorder its neighbours.
    <span className={`visible-text ${className ?? ''}`} dir="ltr" title={title && visibleString(title)}>
      {segments.map((s, i) =>
        s.kind === 'text' ? (
          s.text
        ) : (
          <span key={i} className={`visible-mark visible-mark-${s.style}`} title={s.name} aria-label={s.name}>
            {s.mark}
          </span>
        ),
      )}
    </span>
  );
}
