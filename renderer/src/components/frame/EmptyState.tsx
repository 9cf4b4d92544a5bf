/** No tab open: how to start. */
import { useAppStore } from '../../store/app-store';
import { modKeyName } from './mod-key';

export function EmptyState() {
  const openDialog = useAppStore((s) => s.openDialog);
  return (
    <div className="empty-state">
      <h1>No session open</h1>
      <p>
        Drag a folder onto this window, or press <kbd>{modKeyName()}+O</kbd> to open one. An agent then works in that
        folder and asks you before it writes a file, runs a command or reads outside it.
      </p>
      <button type="button" className="primary" onClick={() => openDialog('open-folder')}>
        Open folder
      </button>
    </div>
  );
}
