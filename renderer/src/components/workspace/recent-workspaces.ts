/** Workspaces of the known sessions, the most recently active first, each once. */
import type { SessionEntry } from '../../store/sessions-slice';

export function recentWorkspaces(sessions: Record<string, SessionEntry>, limit = 8): string[] {
  const newest = new Map<string, string>();
  for (const { summary } of Object.values(sessions)) {
    const seen = newest.get(summary.workspace);
    if (!seen || summary.updatedAt > seen) newest.set(summary.workspace, summary.updatedAt);
  }
  return [...newest]
    .sort((a, b) => b[1].localeCompare(a[1]))
    .slice(0, limit)
    .map(([workspace]) => workspace);
}
