/**
 * A running command's output as it arrives: the last LIVE_LINES lines only, with how much
 * earlier output is not shown. The whole (capped) result is in the row once it finishes.
 */
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
  return (
    <div className="live-output">
      {hidden > 0 && (
        <p className="live-output-hidden">
          {hidden.toLocaleString('en')} earlier characters not shown; the whole result is here when the command
          finishes.
        </p>
      )}
      <pre className="tool-output" aria-label="Live output">
        {shown}
      </pre>
    </div>
  );
}
