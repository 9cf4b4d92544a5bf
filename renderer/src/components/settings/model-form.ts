/** The settings form's fields, and the model setting they make (checked again by the app). */
import type { ModelConfig, Provider } from '../../../../shared/contract';

export interface ModelForm {
  provider: Provider;
  modelId: string;
  baseURL: string;
  maxOutputTokens: string;
  /** The model facts a config may state for a model the table lacks (or to override it). */
  contextWindow: string;
  priceInput: string;
  priceOutput: string;
  priceCacheRead: string;
  priceCacheWrite: string;
}

export type OverrideField = 'contextWindow' | 'priceInput' | 'priceOutput' | 'priceCacheRead' | 'priceCacheWrite';

export const OVERRIDE_FIELDS: readonly OverrideField[] = [
  'contextWindow',
  'priceInput',
  'priceOutput',
  'priceCacheRead',
  'priceCacheWrite',
];

/** The smallest window the app accepts (shared/contract.ts says the same). */
const MIN_WINDOW = 1024;

const text = (n: number | undefined) => (n !== undefined ? String(n) : '');

export function formFrom(model: ModelConfig | null): ModelForm {
  return {
    provider: model?.provider ?? 'anthropic',
    modelId: model?.modelId ?? '',
    baseURL: model?.baseURL ?? '',
    maxOutputTokens: text(model?.maxOutputTokens),
    contextWindow: text(model?.contextWindow),
    priceInput: text(model?.prices?.input),
    priceOutput: text(model?.prices?.output),
    priceCacheRead: text(model?.prices?.cacheRead),
    priceCacheWrite: text(model?.prices?.cacheWrite),
  };
}

/** Whether the form states any model fact of its own. */
export function hasOverrides(form: ModelForm): boolean {
  return OVERRIDE_FIELDS.some((f) => form[f].trim() !== '');
}

/** The model setting, or words that say what is wrong with the form. */
export function modelFrom(form: ModelForm): ModelConfig | { error: string } {
  const modelId = form.modelId.trim();
  if (modelId === '') return { error: 'Model id is empty.' };
  const model: ModelConfig = { provider: form.provider, modelId };
  if (form.baseURL.trim() !== '') model.baseURL = form.baseURL.trim();
  const max = form.maxOutputTokens.trim();
  if (max !== '') {
    const n = Number(max);
    if (!Number.isInteger(n) || n <= 0) return { error: 'Max output tokens must be a whole number above 0, or empty.' };
    model.maxOutputTokens = n;
  }
  const window = windowFrom(form.contextWindow);
  if (typeof window === 'object') return window;
  if (window !== undefined) model.contextWindow = window;
  const prices = pricesFrom(form);
  if (prices !== undefined && 'error' in prices) return prices;
  if (prices !== undefined) model.prices = prices;
  return model;
}

function windowFrom(field: string): number | undefined | { error: string } {
  if (field.trim() === '') return undefined;
  const n = Number(field.trim());
  if (!Number.isInteger(n) || n < MIN_WINDOW)
    return { error: `Context window must be a whole number of tokens, at least ${MIN_WINDOW}, or empty.` };
  return n;
}

type Prices = NonNullable<ModelConfig['prices']>;

function pricesFrom(form: ModelForm): Prices | undefined | { error: string } {
  const fields = [form.priceInput, form.priceOutput, form.priceCacheRead, form.priceCacheWrite].map(dollarsFrom);
  if (fields.some((f) => Number.isNaN(f)))
    return { error: 'Prices are US dollars per million tokens, such as 3 or 0.25, or empty.' };
  const [input, output, cacheRead, cacheWrite] = fields;
  if (fields.every((f) => f === undefined)) return undefined;
  if (input === undefined || output === undefined)
    return { error: 'Set both the input and the output price, or no price at all.' };
  const prices: Prices = { input, output };
  if (cacheRead !== undefined) prices.cacheRead = cacheRead;
  if (cacheWrite !== undefined) prices.cacheWrite = cacheWrite;
  return prices;
}

/** A price field: undefined when empty, NaN when it is not a price. A leading $ is allowed. */
function dollarsFrom(field: string): number | undefined {
  const value = field.trim().replace(/^\$\s*/, '');
  if (value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : Number.NaN;
}
