/**
 * One history, run the way it asks: in process, or (for the sampled share) in a host
 * process that gets a kill -9.
 */
import { runCrashHistory } from './crash-run.js';
import type { History } from './history.js';
import { runHistory, type HistoryOutcome } from './history-runner.js';

export function checkHistory(history: History): Promise<HistoryOutcome> {
  if (!history.crash) return runHistory(history);
  // The kill lands in a step the history has, however long it turned out.
  return runCrashHistory(history, { ...history.crash, at: history.crash.at % history.steps.length });
}
