/**
 * Ctrl/Cmd+O: type or paste a folder's path (with completion: arrow keys pick, Tab or Enter
 * takes the pick), or choose a recent workspace; Enter opens a session on it in a new tab,
 * driven by Gatehouse's own agent or by the external agent picked, in the folder itself or
 * in a place of its own (always, for an agent that writes by itself).
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useCall } from '../../api/use-call';
import { useAppStore } from '../../store/app-store';
import { Combobox } from '../frame/Combobox';
import { Dialog } from '../frame/Dialog';
import type { AgentListing } from '../../../../shared/agents';
import { AgentPicker, worksOnlyInPlace, type AgentChoice } from './AgentPicker';
import { PlaceChoice, placeRequest, type PlaceOption } from './PlaceChoice';
import { recentWorkspaces } from './recent-workspaces';
import { useFolderCompletion } from './useFolderCompletion';
import { useOpenSession } from './useOpenSession';

export function OpenFolderDialog() {
  const closeDialog = useAppStore((s) => s.closeDialog);
  const sessions = useAppStore((s) => s.sessions);
  const recent = useMemo(() => recentWorkspaces(sessions), [sessions]);
  const openSession = useOpenSession();
  const [agent, setAgent] = useState<AgentChoice>('');
  const [picked, setPicked] = useState<AgentListing | undefined>(undefined);
  const [place, setPlace] = useState<PlaceOption>({ on: false, base: '' });
  const forcedBy = picked && worksOnlyInPlace(picked) ? picked.label : null;
  const placeAsk = placeRequest(place, forcedBy !== null);
  const opening = useCall((_api, folder: string) =>
    openSession(folder, { ...(agent ? { agent } : {}), ...(placeAsk ? { place: placeAsk } : {}) }),
  );
  const [path, setPath] = useState('');
  const suggestions = useFolderCompletion(path);

  const edit = (value: string) => {
    setPath(value);
    // Editing clears what the last try said (nothing is said while one is on its way).
    if (opening.error !== null) opening.reset();
  };

  const open = async (folder: string) => {
    if (folder.trim() === '' || opening.pending) return;
    const reply = await opening.run(folder.trim());
    if (reply.ok) closeDialog();
  };

  // A folder taken ends in a slash, so the next suggestions are its subfolders.
  const take = (folder: string) => edit(folder.endsWith('/') ? folder : `${folder}/`);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void open(path);
  };

  return (
    <Dialog title="Open a folder" onClose={closeDialog}>
      <form onSubmit={submit} className="open-folder">
        <Combobox
          id="folder-path"
          label="Folder"
          value={path}
          onEdit={edit}
          onTake={take}
          options={suggestions}
          optionKey={(folder) => folder}
          renderOption={(folder) => folder}
          optionClassName="mono"
          listId="folder-suggestions"
          listLabel="Folders"
          listClassName="suggestions"
          optionIdPrefix="folder-suggestion-"
          tabTakes
          autoFocus
          className="mono"
          placeholder="/home/you/src/project or ~/src/project"
          describedBy="folder-help"
        />
        <p id="folder-help" className="field-help">
          A folder's full path; ~ is your home. ↑ ↓ pick a suggestion, Tab takes it, Enter opens.
        </p>
        <AgentPicker
          value={agent}
          onChange={(choice, listing) => {
            setAgent(choice);
            setPicked(listing);
          }}
        />
        <PlaceChoice value={place} onChange={setPlace} forcedBy={forcedBy} />
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
