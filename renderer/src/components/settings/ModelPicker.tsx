/**
 * The model id: a combobox over the known models of the chosen provider (type to filter by
 * id or name, ↑ ↓ to pick, Enter to take, Esc to close the list) that still takes any id
 * typed, since a provider ships models before the table has them.
 */
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { Provider } from '../../../../shared/contract';
import { DEFAULT_CONTEXT_WINDOW, findModelFacts, type ModelFacts } from '../../../../shared/model-facts';
import { factsWords, filterModels, modelsFor, windowWords } from './model-choice';
import { PROVIDER_SHORT_NAMES } from './provider-names';
import type { CatalogState } from './useModelCatalog';

const LISTBOX_ID = 'model-options';
const optionId = (i: number) => `model-option-${i}`;

interface Props {
  provider: Provider;
  catalog: CatalogState;
  value: string;
  onChange: (modelId: string) => void;
}

export function ModelPicker({ provider, catalog, value, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<number | null>(null);
  const offered = useMemo(() => (typeof catalog === 'object' ? modelsFor(catalog, provider) : []), [catalog, provider]);
  const options = useMemo(() => filterModels(offered, value), [offered, value]);
  const expanded = open && options.length > 0;
  const shown = expanded && active !== null && active < options.length ? active : null;

  useEffect(() => {
    if (shown !== null) document.getElementById(optionId(shown))?.scrollIntoView?.({ block: 'nearest' });
  }, [shown]);

  const edit = (text: string) => {
    onChange(text);
    setOpen(true);
    setActive(null);
  };
  const take = (model: ModelFacts) => {
    onChange(model.id);
    setOpen(false);
    setActive(null);
  };
  const move = (step: 1 | -1) => {
    setOpen(true);
    if (options.length === 0) return;
    setActive(shown === null ? (step > 0 ? 0 : options.length - 1) : (shown + step + options.length) % options.length);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && shown !== null) {
      event.preventDefault();
      const model = options[shown];
      if (model) take(model);
    } else if (event.key === 'Escape' && expanded) {
      // Closes the list only, not the whole dialog.
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <>
      <label htmlFor="settings-model">Model id</label>
      <input
        id="settings-model"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={LISTBOX_ID}
        aria-activedescendant={shown !== null ? optionId(shown) : undefined}
        aria-describedby="settings-model-help"
        className="mono"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => edit(e.target.value)}
        onKeyDown={onKeyDown}
        onClick={() => setOpen((o) => !o)}
        onBlur={() => setOpen(false)}
      />
      {expanded && (
        <ul
          id={LISTBOX_ID}
          role="listbox"
          aria-label={`Known ${PROVIDER_SHORT_NAMES[provider]} models`}
          className="suggestions model-options"
        >
          {options.map((model, i) => (
            <li
              key={model.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === shown}
              onMouseDown={(e) => {
                e.preventDefault();
                take(model);
              }}
            >
              <span className="mono">{model.id}</span>{' '}
              <span className="model-option-facts">
                {model.name} · {factsWords(model)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p id="settings-model-help" className="field-help">
        {helpWords(provider, catalog, value)}
      </p>
    </>
  );
}

/** Under the field: what the table knows of the model typed, or what the app will assume. */
function helpWords(provider: Provider, catalog: CatalogState, modelId: string): string {
  if (typeof catalog !== 'object') return 'Any model id the provider takes.';
  const known = modelId.trim() === '' ? null : findModelFacts(catalog.models, provider, modelId);
  if (known) return `${known.name}: ${factsWords(known)}.`;
  if (modelId.trim() !== '')
    return `Not in the table of known models: the app takes its window to be ${windowWords(DEFAULT_CONTEXT_WINDOW)} tokens and shows no cost, unless you set them below.`;
  return provider === 'openai-compatible'
    ? 'The id your server gives the model.'
    : 'Type to search the known models (↑ ↓ to pick, Enter to take), or any model id.';
}
