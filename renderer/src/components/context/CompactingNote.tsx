/** Under the composer while the app writes a summary of this session's history (Compact now, or before a step). */
import { useAppStore } from '../../store/app-store';

export function CompactingNote({ sessionId }: { sessionId: string }) {
  const compacting = useAppStore((s) => s.compacting[sessionId] === true);
  if (!compacting) return null;
  return (
    <p className="compacting-note" role="status">
      Writing a summary of the history…
    </p>
  );
}
