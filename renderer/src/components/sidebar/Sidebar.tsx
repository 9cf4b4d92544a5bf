/** The left column: what waits for the person, every session by workspace, and the two ways in. */
import { useAppStore } from '../../store/app-store';
import { SessionList } from './SessionList';
import { WaitingList } from './WaitingList';

export function Sidebar() {
  const openDialog = useAppStore((s) => s.openDialog);
  return (
    <nav className="sidebar" aria-label="Sessions">
      <WaitingList />
      <SessionList />
      <div className="sidebar-actions">
        <button type="button" onClick={() => openDialog('open-folder')}>
          Open folder
        </button>
        <button type="button" onClick={() => openDialog('settings')}>
          Settings
        </button>
      </div>
    </nav>
  );
}
