/** Every session, grouped by workspace (the most recently active first), with its state mark. */
import { useMemo } from 'react';
import { useNow } from '../../hooks/useNow';
import { useAppStore } from '../../store/app-store';
import { folderOf } from '../../store/session-place';
import { statusOf } from '../../store/session-status';
import type { SessionEntry } from '../../store/sessions-slice';
import { shortRelativeTime } from '../frame/relative-time';
import { StateMark } from '../frame/StateMark';

interface Group {
  workspace: string;
  entries: SessionEntry[];
}

export function groupByWorkspace(sessions: Record<string, SessionEntry>): Group[] {
  const byWorkspace = new Map<string, SessionEntry[]>();
  const newestFirst = Object.values(sessions).sort((a, b) => b.summary.updatedAt.localeCompare(a.summary.updatedAt));
  for (const entry of newestFirst) {
    // A session in a place of its own sits with the folder it came from.
    const folder = folderOf(entry.summary);
    const list = byWorkspace.get(folder) ?? [];
    list.push(entry);
    byWorkspace.set(folder, list);
  }
  return [...byWorkspace].map(([workspace, entries]) => ({ workspace, entries }));
}

/** The last two folders of a long path: the end is what tells workspaces apart. */
export function shortWorkspace(workspace: string): string {
  if (workspace.length <= 30) return workspace;
  const parts = workspace.split('/').filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : workspace;
}

export function SessionList() {
  const sessions = useAppStore((s) => s.sessions);
  const activeId = useAppStore((s) => s.activeId);
  const openTab = useAppStore((s) => s.openTab);
  const now = useNow();
  const groups = useMemo(() => groupByWorkspace(sessions), [sessions]);

  if (groups.length === 0) {
    return <p className="sidebar-empty sessions-empty">No sessions yet.</p>;
  }
  return (
    <div className="session-groups">
      {groups.map((group) => (
        // A group, not a region: landmarks are kept for the cards and the terminal.
        <div key={group.workspace} className="session-group" role="group" aria-label={group.workspace}>
          <h3 className="workspace-name" title={group.workspace}>
            {shortWorkspace(group.workspace)}
          </h3>
          <ul className="session-list">
            {group.entries.map((entry) => (
              <li key={entry.summary.id}>
                <button
                  type="button"
                  className="session-item"
                  aria-current={entry.summary.id === activeId ? 'page' : undefined}
                  onClick={() => openTab(entry.summary.id)}
                >
                  <StateMark status={statusOf(entry)} />
                  <span className="session-title">{entry.summary.title}</span>
                  <span className="session-time">{shortRelativeTime(entry.summary.updatedAt, now)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
