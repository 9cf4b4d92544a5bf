/** Workspaces of the known sessions (a place's origin, not the place), the most recently active first, each once. */
import { folderOf } from '../../store/session-place';
import type { SessionEntry } from '../../store/sessions-slice';

export function recentWorkspaces(sessions: Record<string, SessionEntry>, limit = 8): string[] {
  const newest = new Map<string, string>();
  for (const { summary } of Object.values(sessions)) {
    const folder = folderOf(summary);
    const seen = newest.get(folder);
    if (!seen || summary.updatedAt > seen) newest.set(folder, summary.updatedAt);
  }
  return [...newest]
    .sort((a, b) => b[1].localeCompare(a[1]))
    .slice(0, limit)
    .map(([workspace]) => workspace);
}
