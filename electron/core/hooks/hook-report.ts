/**
 * How a failed Stop hook reads to the model: its argv, exit code and output. The finish
 * call's result and the context's note after a plain-text finish say it the same way.
 */
export interface HookOutcome {
  argv: string[];
  exitCode: number | null;
  output: string;
}

function hookText(e: HookOutcome): string {
  return `$ ${e.argv.join(' ')}\nexit ${e.exitCode ?? 'none'}\n${e.output}`;
}

/** The result of a finish call whose Stop hook failed. */
export function finishRefused(e: HookOutcome): string {
  return `Stop hook failed, so the task is not finished:\n${hookText(e)}`;
}

/** The note the context adds after a plain-text finish whose Stop hook failed. */
export function hookFailedNote(e: HookOutcome): string {
  return `A Stop hook failed, so the task is not finished yet.\n${hookText(e)}`;
}
