/**
 * A running command's output as it arrives: the last LIVE_LINES lines only, with how much
 * earlier output is not shown. The whole (capped) result is in the row once it finishes.
 */
import { useLayoutEffect, useRef } from 'react';
import type { LiveOutput as LiveOutputData } from '../../store/live-output';

export const LIVE_LINES = 2000;

export function lastLines(text: string, count: number): { shown: string; hiddenChars: number } {
  let at = text.length;
  for (let i = 0; i < count; i++) {
    const previous = text.lastIndexOf('\n', at - 1);
    if (previous < 0) return { shown: text, hiddenChars: 0 };
    at = previous;
  }
  return { shown: text.slice(at + 1), hiddenChars: at + 1 };
}

export function LiveOutput({ output }: { output: LiveOutputData }) {
  const body = output.text.endsWith('\n') ? output.text.slice(0, -1) : output.text;
  const { shown, hiddenChars } = lastLines(body, LIVE_LINES);
  const hidden = hiddenChars + output.droppedChars;
  const preRef = useRef<HTMLPreElement>(null);
  const followRef = useRef(true);
  // The newest lines matter while a command runs: follow them unless the reader scrolled up.
  useLayoutEffect(() => {
    const pre = preRef.current;
    if (pre && followRef.current) pre.scrollTop = pre.scrollHeight;
  }, [shown]);
  const onScroll = () => {
    const pre = preRef.current;
    if (pre) followRef.current = pre.scrollHeight - pre.scrollTop - pre.clientHeight <= 24;
  };
  return (
    <div className="live-output">
      {hidden > 0 && (
        <p className="live-output-hidden">
          {hidden.toLocaleString('en')} earlier characters not shown; the whole result is here when the command
          finishes.
        </p>
      )}
      <pre ref={preRef} className="code-block" aria-label="Live output" onScroll={onScroll}>
        {shown}
      </pre>
    </div>
  );
}
