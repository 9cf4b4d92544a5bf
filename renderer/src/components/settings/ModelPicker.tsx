/**
 * The model id: a combobox over the known models of the chosen provider (type to filter by
 * id or name, ↑ ↓ to pick, Enter to take, Esc to close the list) that still takes any id
 * typed, since a provider ships models before the table has them.
 */
import { useMemo } from 'react';
import type { Provider } from '../../../../shared/contract';
import { DEFAULT_CONTEXT_WINDOW, findModelFacts, type ModelFacts } from '../../../../shared/model-facts';
import { Combobox } from '../frame/Combobox';
import { factsWords, filterModels, modelsFor, windowWords } from './model-choice';
import { PROVIDER_SHORT_NAMES } from './provider-names';
import type { CatalogState } from './useModelCatalog';

interface Props {
  provider: Provider;
  catalog: CatalogState;
  value: string;
  onChange: (modelId: string) => void;
}

export function ModelPicker({ provider, catalog, value, onChange }: Props) {
  const offered = useMemo(() => (typeof catalog === 'object' ? modelsFor(catalog, provider) : []), [catalog, provider]);
  const options = useMemo(() => filterModels(offered, value), [offered, value]);
  return (
    <>
      <Combobox
        id="settings-model"
        label="Model id"
        value={value}
        onEdit={onChange}
        onTake={(model: ModelFacts) => onChange(model.id)}
        options={options}
        optionKey={(model) => model.id}
        renderOption={modelOption}
        listId="model-options"
        listLabel={`Known ${PROVIDER_SHORT_NAMES[provider]} models`}
        listClassName="suggestions model-options"
        optionIdPrefix="model-option-"
        closes
        className="mono"
        describedBy="settings-model-help"
      />
      <p id="settings-model-help" className="field-help">
        {helpWords(provider, catalog, value)}
      </p>
    </>
  );
}

/** An option: the id, then its name and facts, quieter. */
function modelOption(model: ModelFacts) {
  return (
    <>
      <span className="mono">{model.id}</span>{' '}
      <span className="model-option-facts">
        {model.name} · {factsWords(model)}
      </span>
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
