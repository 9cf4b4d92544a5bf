/**
 * "Compact now": asks the app to summarise the session's history (`session.compact`, a
 * model call that can take a while) and follows it to its result or its error. The
 * session counts as busy while this window's request runs and whenever the app says a
 * summary is being written (the `session.compacting` push, e.g. before a step of a turn).
 */
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';

export type CompactOutcome =
  { kind: 'done'; tokensBefore: number; tokensAfter: number } | { kind: 'failed'; error: string } | null;

export interface CompactState {
  busy: boolean;
  outcome: CompactOutcome;
  compact(instructions: string): Promise<void>;
}

export function useCompact(sessionId: string, onDone: () => void): CompactState {
  const pushed = useAppStore((s) => s.compacting[sessionId] === true);
  const asking = useCall((api, keep: string) =>
    api['session.compact']({ id: sessionId, ...(keep ? { instructions: keep } : {}) }),
  );

  const compact = async (instructions: string) => {
    const reply = await asking.run(instructions.trim());
    if (reply.ok) onDone();
  };

  const outcome: CompactOutcome = asking.pending
    ? null
    : asking.error !== null
      ? { kind: 'failed', error: asking.error }
      : asking.data !== undefined
        ? { kind: 'done', ...asking.data }
        : null;
  return { busy: asking.pending || pushed, outcome, compact };
}
