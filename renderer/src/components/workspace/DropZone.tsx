/** The whole window takes a dropped folder and opens a session on it. */
import { useState, type DragEvent, type ReactNode } from 'react';
import { useApi } from '../../api/api-context';
import { useAppStore } from '../../store/app-store';
import { droppedFolder } from './dropped-folder';
import { useOpenSession } from './useOpenSession';

const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

export function DropZone({ children }: { children: ReactNode }) {
  const api = useApi();
  const openSession = useOpenSession();
  const showNotice = useAppStore((s) => s.showNotice);
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };

  const onDrop = async (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    setOver(false);
    const outcome = droppedFolder(event.dataTransfer, api.getPathForFile?.bind(api));
    if ('error' in outcome) return showNotice({ kind: 'error', text: outcome.error });
    const reply = await openSession(outcome.path);
    if (!reply.ok) showNotice({ kind: 'error', text: `Could not open ${outcome.path}: ${reply.error}` });
  };

  return (
    <div
      className={`drop-zone${over ? ' drop-over' : ''}`}
      onDragOver={onDragOver}
      onDragLeave={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setOver(false)}
      onDrop={(e) => void onDrop(e)}
    >
      {children}
      {over && (
        <div className="drop-hint" aria-hidden="true">
          Drop a folder to open a session on it
        </div>
      )}
    </div>
  );
}
