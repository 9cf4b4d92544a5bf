/**
 * Untrusted text of several lines (an MCP tool's description, its arguments as JSON, a
 * server's stderr) with each line's invisible and look-alike characters shown as marks,
 * while the line breaks stay line breaks. VisibleText alone would turn every newline into
 * a mark. Its text content is the text itself whenever nothing in it needs a mark.
 */
import { Fragment, useMemo } from 'react';
import type { VisibleOptions } from './visible-text';
import { VisibleText } from './VisibleText';

export function VisibleLines({
  text,
  options,
  className,
}: {
  text: string;
  options: VisibleOptions;
  className?: string;
}) {
  const lines = useMemo(() => text.split('\n'), [text]);
  return (
    <>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 && '\n'}
          {line !== '' && <VisibleText text={line} options={options} className={className} />}
        </Fragment>
      ))}
    </>
  );
}
