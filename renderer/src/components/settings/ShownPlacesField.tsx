/**
 * Settings' list of what confined commands see of the home folder (SPEC §9): the
 * toolchains found on this machine, always shown read-only, and the places the person
 * added, each with Remove; a field adds one (absolute or ~/). The core checks each place
 * (never ~/.config, ~/.local, ~/.cache or a folder holding a secret store) and answers
 * with the saved list, which is what this shows, or with why not, shown as it came.
 */
import { useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../../shared/contract';
import { useCall } from '../../api/use-call';
import { useAppStore, useHomeFolder } from '../../store/app-store';
import { VisibleText } from '../cards/VisibleText';
import { PROSE_OPTIONS } from '../cards/visible-text';

export function ShownPlacesField({ view }: { view: SettingsView }) {
  const setSettings = useAppStore((s) => s.setSettings);
  const home = useHomeFolder();
  const [draft, setDraft] = useState('');
  const saving = useCall((api, places: string[]) => api['settings.set']({ shownPlaces: places }));
  const inputId = useId();
  const helpId = useId();
  const shown = view.shown ?? { toolchains: [], added: [] };
  const short = (p: string) => (home && p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p);

  const save = async (places: string[]): Promise<boolean> => {
    const reply = await saving.run(places);
    if (reply.ok) setSettings(reply.data);
    return reply.ok;
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft.trim()) return;
    if (await save([...shown.added, draft.trim()])) setDraft('');
  };

  return (
    <div className="shown-places">
      <h3 className="shown-places-title">What commands see of your home folder</h3>
      <p id={helpId} className="field-help">
        Inside the sandbox your home folder is empty except these places, shown read-only. Secret stores, credential
        files and the app&apos;s data inside them stay hidden. Add a tool&apos;s own folder (~/.config/nvim), not
        ~/.config, ~/.local or ~/.cache, which hold many tools&apos; tokens.
      </p>
      <ul className="shown-places-list" aria-label="Toolchains shown to commands">
        {shown.toolchains.length === 0 && (
          <li className="shown-places-none">No toolchains found in your home folder</li>
        )}
        {shown.toolchains.map((p) => (
          <li key={p}>
            <VisibleText className="visible-prose" text={short(p)} options={PROSE_OPTIONS} />
          </li>
        ))}
      </ul>
      {shown.added.length > 0 && (
        <ul className="shown-places-list" aria-label="Places you added">
          {shown.added.map((p) => (
            <li key={p}>
              <VisibleText className="visible-prose" text={short(p)} options={PROSE_OPTIONS} />{' '}
              <button
                type="button"
                className="shown-places-remove"
                disabled={saving.pending}
                aria-label={`Remove ${short(p)}`}
                onClick={() => void save(shown.added.filter((q) => q !== p))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="shown-places-add" onSubmit={(e) => void add(e)}>
        <label htmlFor={inputId}>Also show</label>
        <input
          id={inputId}
          type="text"
          value={draft}
          placeholder="~/.sdkman"
          spellCheck={false}
          aria-describedby={helpId}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" disabled={saving.pending || !draft.trim()}>
          Add
        </button>
      </form>
      {saving.error && (
        <p className="dialog-error" role="alert">
          {saving.error}
        </p>
      )}
    </div>
  );
}
