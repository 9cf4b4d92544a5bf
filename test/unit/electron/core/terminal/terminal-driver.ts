/**
 * Drives a session's terminal through the host, as a transport would, and reads its
 * output back from the pushes the core emitted.
 */
import type { Push } from '../../../../../shared/contract.js';
import type { Harness } from '../core-harness.js';

export interface TerminalDriver {
  terminalId: string;
  type(line: string): Promise<void>;
  /** Everything the shell printed so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output (waiting for it if needed). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  outputPushes(): Extract<Push, { name: 'terminal.output' }>[];
}

export async function openTerminal(h: Harness, sessionId: string): Promise<TerminalDriver> {
  const { terminalId } = await h.call('terminal.open', { id: sessionId });
  const outputPushes = () =>
    h.pushes.filter(
      (p): p is Extract<Push, { name: 'terminal.output' }> =>
        p.name === 'terminal.output' && p.payload.terminalId === terminalId,
    );
  const output = () =>
    outputPushes()
      .map((p) => p.payload.data)
      .join('');
  return {
    terminalId,
    output,
    outputPushes,
    async type(line) {
      await h.call('terminal.write', { terminalId, data: `${line}\r` });
    },
    waitFor: (pattern, timeoutMs = 10_000) => waitUntil(() => output().match(pattern), timeoutMs, `${pattern}`),
  };
}

export async function waitUntil<T>(probe: () => T | null | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
