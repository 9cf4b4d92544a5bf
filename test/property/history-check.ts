/**
 * One history, run the way it asks: in process, or (for the sampled share) in a host
 * process that gets a kill -9.
 */
import { runCrashHistory } from './crash-run.js';
import type { History } from './history.js';
import { runHistory, type HistoryOutcome } from './history-runner.js';

export async function checkHistory(history: History): Promise<HistoryOutcome> {
  try {
    if (!history.crash) return await runHistory(history);
    // The kill lands in a step the history has, however long it turned out.
    return await runCrashHistory(history, { ...history.crash, at: history.crash.at % history.steps.length });
  } catch (err) {
    // Reported as a violation so the run goes on, and shrinks it like any other.
    return { violations: [`the run itself failed: ${(err as Error).stack ?? String(err)}`], steps: 0, reached: {} };
  }
}
