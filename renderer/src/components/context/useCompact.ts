/**
 * "Compact now": asks the app to summarise the session's history (`session.compact`, a
 * model call that can take a while) and follows it to its result or its error. The
 * session counts as busy while this window's request runs and whenever the app says a
 * summary is being written (the `session.compacting` push, e.g. before a step of a turn).
 */
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { useAppStore } from '../../store/app-store';

export type CompactOutcome =
  { kind: 'done'; tokensBefore: number; tokensAfter: number } | { kind: 'failed'; error: string } | null;

export interface CompactState {
  busy: boolean;
  outcome: CompactOutcome;
  compact(instructions: string): Promise<void>;
}

export function useCompact(sessionId: string, onDone: () => void): CompactState {
  const api = useApi();
  const pushed = useAppStore((s) => s.compacting[sessionId] === true);
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<CompactOutcome>(null);

  const compact = async (instructions: string) => {
    setAsking(true);
    setOutcome(null);
    try {
      const keep = instructions.trim();
      const reply = await api['session.compact']({ id: sessionId, ...(keep ? { instructions: keep } : {}) });
      setOutcome(reply.ok ? { kind: 'done', ...reply.data } : { kind: 'failed', error: reply.error });
      if (reply.ok) onDone();
    } finally {
      setAsking(false);
    }
  };

  return { busy: asking || pushed, outcome, compact };
}
