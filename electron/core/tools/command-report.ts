/**
 * A finished command as text for the model: how it ended, how long it took, then each
 * stream with its size. The model reads the exit code itself, so a failing command is a
 * report, not an error. Stop hooks reuse this for the output they hand back.
 */
import type { CapturedText } from '../text/output-cap.js';
import type { ProcessOutcome } from '../process/command-run.js';

export function describeOutcome(outcome: ProcessOutcome, timeoutS: number): string {
  return [
    endingLine(outcome, timeoutS),
    `duration: ${(outcome.durationMs / 1000).toFixed(2)} s`,
    streamBlock('stdout', outcome.stdout),
    streamBlock('stderr', outcome.stderr),
  ].join('\n');
}

function endingLine(outcome: ProcessOutcome, timeoutS: number): string {
  const status =
    outcome.signal !== null
      ? `killed by signal ${outcome.signal}`
      : outcome.exitCode !== null
        ? `exit code ${outcome.exitCode}`
        : 'never started';
  if (outcome.timedOut) {
    return `timed out after ${timeoutS} s: the process group was stopped (SIGTERM, then SIGKILL); ${status}`;
  }
  if (outcome.cancelled) return `cancelled by the user: the process group was stopped; ${status}`;
  return status;
}

function streamBlock(name: 'stdout' | 'stderr', captured: CapturedText): string {
  if (captured.totalBytes === 0) return `${name}: (empty)`;
  const size =
    captured.omittedBytes > 0
      ? `${captured.totalBytes} bytes, ${captured.omittedBytes} left out in the middle`
      : `${captured.totalBytes} bytes`;
  // The block's own line break follows; a trailing newline of the stream would only add a blank line.
  return `${name} (${size}):\n${captured.text.replace(/\n$/, '')}`;
}
