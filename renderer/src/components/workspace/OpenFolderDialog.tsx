/**
 * Ctrl/Cmd+O: type or paste a folder's path (with completion: arrow keys pick, Tab or Enter
 * takes the pick), or choose a recent workspace; Enter opens a session on it in a new tab.
 */
import { useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { Dialog } from '../frame/Dialog';
import { recentWorkspaces } from './recent-workspaces';
import { useFolderCompletion } from './useFolderCompletion';
import { useOpenSession } from './useOpenSession';

const LISTBOX_ID = 'folder-suggestions';

export function OpenFolderDialog() {
  const closeDialog = useAppStore((s) => s.closeDialog);
  const sessions = useAppStore((s) => s.sessions);
  const recent = useMemo(() => recentWorkspaces(sessions), [sessions]);
  const openSession = useOpenSession();
  const opening = useCall((_api, folder: string) => openSession(folder));
  const [path, setPath] = useState('');
  const [picked, setPicked] = useState<number | null>(null);
  const suggestions = useFolderCompletion(path);
  const shown = picked !== null && picked < suggestions.length ? picked : null;

  const edit = (value: string) => {
    setPath(value);
    setPicked(null);
    // Editing clears what the last try said (nothing is said while one is on its way).
    if (opening.error !== null) opening.reset();
  };

  const open = async (folder: string) => {
    if (folder.trim() === '' || opening.pending) return;
    const reply = await opening.run(folder.trim());
    if (reply.ok) closeDialog();
  };

  const take = (folder: string | undefined) => {
    if (folder !== undefined) edit(folder.endsWith('/') ? folder : `${folder}/`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (suggestions.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setPicked(
        shown === null
          ? step > 0
            ? 0
            : suggestions.length - 1
          : (shown + step + suggestions.length) % suggestions.length,
      );
    } else if (event.key === 'Tab' && !event.shiftKey && suggestions.length > 0) {
      event.preventDefault();
      take(suggestions[shown ?? 0]);
    } else if (event.key === 'Enter' && shown !== null) {
      event.preventDefault();
      take(suggestions[shown]);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void open(path);
  };

  return (
    <Dialog title="Open a folder" onClose={closeDialog}>
      <form onSubmit={submit} className="open-folder">
        <label htmlFor="folder-path">Folder</label>
        <input
          id="folder-path"
          data-autofocus
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={suggestions.length > 0}
          aria-controls={LISTBOX_ID}
          aria-activedescendant={shown !== null ? `folder-suggestion-${shown}` : undefined}
          className="mono"
          placeholder="/home/you/src/project or ~/src/project"
          autoComplete="off"
          spellCheck={false}
          value={path}
          onChange={(e) => edit(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby="folder-help"
        />
        <p id="folder-help" className="field-help">
          A folder's full path; ~ is your home. ↑ ↓ pick a suggestion, Tab takes it, Enter opens.
        </p>
        {suggestions.length > 0 && (
          <ul id={LISTBOX_ID} role="listbox" aria-label="Folders" className="suggestions">
            {suggestions.map((folder, i) => (
              <li
                key={folder}
                id={`folder-suggestion-${i}`}
                role="option"
                aria-selected={i === shown}
                className="mono"
                onMouseDown={(e) => {
                  e.preventDefault();
                  take(folder);
                }}
              >
                {folder}
              </li>
            ))}
          </ul>
        )}
        {opening.error && (
          <p className="dialog-error" role="alert">
            {opening.error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="submit" className="primary" disabled={opening.pending || path.trim() === ''}>
            Open
          </button>
        </div>
      </form>
      {recent.length > 0 && (
        <section className="recent" aria-labelledby="recent-heading">
          <h3 id="recent-heading">Recent workspaces</h3>
          <ul>
            {recent.map((folder) => (
              <li key={folder}>
                <button type="button" className="recent-item mono" onClick={() => void open(folder)}>
                  {folder}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
}
