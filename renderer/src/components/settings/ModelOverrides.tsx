/**
 * The model facts a config may state: its context window and prices. Open for a model the
 * table does not know (else the app assumes 128k tokens and no cost); folded under
 * "Override" for a known one, unless the config already overrides something.
 */
import { useState } from 'react';
import { hasOverrides, OVERRIDE_FIELDS, type ModelForm, type OverrideField } from './model-form';

const LABELS: Record<OverrideField, string> = {
  contextWindow: 'Context window (tokens)',
  priceInput: 'Input price ($ per M tokens)',
  priceOutput: 'Output price ($ per M tokens)',
  priceCacheRead: 'Cache read price ($ per M, optional)',
  priceCacheWrite: 'Cache write price ($ per M, optional)',
};

interface Props {
  form: ModelForm;
  known: boolean;
  onChange: (field: OverrideField, value: string) => void;
}

export function ModelOverrides({ form, known, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const fields = <OverrideFields form={form} onChange={onChange} />;
  if (!known)
    return (
      <fieldset className="model-overrides">
        <legend>Model facts (optional)</legend>
        {fields}
      </fieldset>
    );
  return (
    // Stays open while it holds a value, so nothing saved is out of sight.
    <details
      className="model-overrides"
      open={open || hasOverrides(form)}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>Override</summary>
      {fields}
    </details>
  );
}

function OverrideFields({ form, onChange }: Omit<Props, 'known'>) {
  return (
    <div className="model-override-fields">
      {OVERRIDE_FIELDS.map((field) => (
        <div key={field} className={field === 'contextWindow' ? 'wide' : undefined}>
          <label htmlFor={`settings-${field}`}>{LABELS[field]}</label>
          <input
            id={`settings-${field}`}
            inputMode={field === 'contextWindow' ? 'numeric' : 'decimal'}
            autoComplete="off"
            value={form[field]}
            onChange={(e) => onChange(field, e.target.value)}
          />
        </div>
      ))}
    </div>
  );
}
